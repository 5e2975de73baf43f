import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { redisAnswers } from '../../src/database/redis-launcher';
import { eventually } from './issues';
import { reservedPort } from './ports';

/** A redis-server of one test's own (never the shared one), see startPrivateRedis. */
export interface PrivateRedis {
  url: string;
  child: ChildProcess;
  /** Stops it (SIGTERM, SIGKILL after 15 s) unless it already stopped, and removes its files. Idempotent. */
  stop: () => Promise<void>;
}

/**
 * Starts a redis-server on a reserved loopback port, without persistence, its files in a
 * temporary directory, and answers once it answers PING (failing at once if it exits first). For
 * tests that stop Redis or must not share queues, locks or counters with other files.
 */
export async function startPrivateRedis(tag: string): Promise<PrivateRedis> {
  const dir = mkdtempSync(join(tmpdir(), `${tag}-redis-`));
  const port = await reservedPort();
  const child = spawn('redis-server', ['--bind', '127.0.0.1', '--port', String(port), '--dir', dir, '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const stop = async () => {
    if (!gone()) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const url = `redis://127.0.0.1:${port}/0`;
  if (!(await eventually(async () => gone() || (await redisAnswers(url)))) || gone()) {
    await stop();
    throw new Error(`the private redis-server on port ${port} did not start`);
  }
  return { url, child, stop };
}
