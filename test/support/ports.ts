import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Ports of one Jest worker's block. */
const BLOCK = 1000;

/** The kernel's ephemeral range: port-0 binds and outgoing connections take their ports from it, and only from it. */
function ephemeralRange(): [number, number] {
  try {
    const [lo, hi] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (lo > 0 && hi >= lo) return [lo, hi];
  } catch {
    /* not Linux: its default */
  }
  return [32768, 60999];
}

/** This worker's block: below the ephemeral range (above it when there is no room below), one block per worker. */
function block(): number {
  const [lo, hi] = ephemeralRange();
  const worker = Math.max(1, Number(process.env.JEST_WORKER_ID ?? 1));
  const below = lo - BLOCK * (worker + 1);
  if (below >= 1024) return below;
  const above = hi + 1 + BLOCK * (worker - 1);
  if (above + BLOCK <= 65536) return above;
  throw new Error(`no room for a port block of ${BLOCK} outside the ephemeral range ${lo}-${hi}`);
}

// where this process starts in its block: runs side by side (two checkouts) start apart
let offset = Math.floor(Math.random() * BLOCK);

const bindable = (port: number): Promise<boolean> =>
  new Promise((res) => {
    const s = createServer();
    s.unref();
    s.once('error', () => res(false));
    s.listen(port, '127.0.0.1', () => s.close(() => res(true)));
  });

/**
 * A loopback port for a child process to bind, or to stay closed ("nothing listens there"). It is
 * reserved by construction rather than by a held socket: it comes from this Jest worker's own block
 * outside the kernel's ephemeral range, so no port-0 bind, no outgoing connection and no other worker
 * is ever handed it, and each call in this process moves on to the next port of the block (checked
 * to be free now). The previous helper released a kernel-chosen ephemeral port, which anything else
 * on the machine could take before the child bound it.
 */
export async function reservedPort(): Promise<number> {
  const start = block();
  for (let tries = 0; tries < BLOCK; tries++) {
    const port = start + (offset++ % BLOCK);
    if (await bindable(port)) return port;
  }
  throw new Error(`no free port in ${start}-${start + BLOCK - 1}`);
}
