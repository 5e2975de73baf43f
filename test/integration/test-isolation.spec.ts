import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { reservedPort } from '../support/ports';

/**
 * Every test file has its own Bull key prefix (test/support/environment.cjs): a worker started by
 * one file must never take the jobs another file enqueued while both run.
 */
describe('test isolation', () => {
  it("this file's queue prefix is the run's prefix plus a digest of its path", () => {
    const digest = createHash('sha256').update('test/integration/test-isolation.spec.ts').digest('hex').slice(0, 10);
    expect(process.env.QUEUE_PREFIX).toMatch(/^test-service_test_\d+_[0-9a-f]{6}-[0-9a-f]{10}$/);
    expect(process.env.QUEUE_PREFIX?.endsWith(`-${digest}`)).toBe(true);
  });

  it("ports for child processes come from this worker's block outside the kernel's ephemeral range, a new one each time", async () => {
    const [lo, hi] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    const worker = Number(process.env.JEST_WORKER_ID ?? 1);
    const ports = [];
    for (let i = 0; i < 5; i++) ports.push(await reservedPort());
    expect(new Set(ports).size).toBe(5);
    for (const p of ports) {
      expect(p < lo || p > hi).toBe(true);
      expect(Math.ceil((lo - p) / 1000) - 1).toBe(worker); // worker w's block is [lo - 1000 (w + 1), lo - 1000 w)
    }
    // a port in use at the time of the call is passed over
    const busy: Server = createServer();
    const next = ports[4] + 1 <= lo - 1000 * worker - 1 ? ports[4] + 1 : ports[4] + 1 - 1000;
    await new Promise<void>((r) => busy.listen(next, '127.0.0.1', () => r()));
    try {
      expect(await reservedPort()).not.toBe(next);
    } finally {
      await new Promise((r) => busy.close(r));
    }
  });
});
