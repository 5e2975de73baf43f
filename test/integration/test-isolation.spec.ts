import { createHash } from 'node:crypto';

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
});
