import { accessSync, constants, mkdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import Redis from 'ioredis';
import type { Watchdog } from '../process/watchdog-handle';
import { isAlive } from '../process/watchdog-protocol';

export async function redisAnswers(url: string, timeoutMs = 1500): Promise<boolean> {
  const r = new Redis(url, { lazyConnect: true, connectTimeout: timeoutMs, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false });
  r.on('error', () => undefined);
  try {
    await r.connect();
    return (await r.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}

function findOnPath(bin: string, pathEnv: string | undefined): string | null {
  for (const dir of (pathEnv ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, bin);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      /* not here */
    }
  }
  return null;
}

export const REDIS_INSTALL_HINT =
  'Redis is not reachable and no redis-server binary is on PATH. Install Redis (Debian/Ubuntu: `apt-get install redis-server`; macOS: `brew install redis`) or set REDIS_URL to a running server.';

/**
 * Makes sure Redis answers at `url`. When nothing answers and `redis-server` is on PATH, starts
 * one for that host and port with its files under DATA_DIR/redis, under the launcher's watchdog
 * (which stops it after the API and the worker). Returns whether it started one.
 */
export async function ensureRedis(url: string, dataDir: string, pathEnv: string | undefined, watchdog: Watchdog, log: (m: string) => void): Promise<boolean> {
  if (await redisAnswers(url)) return false;
  const bin = findOnPath('redis-server', pathEnv);
  if (!bin) throw new Error(REDIS_INSTALL_HINT);
  const u = new URL(url);
  const host = u.hostname || '127.0.0.1';
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host)) {
    throw new Error(`Redis at ${u.host} does not answer; a local redis-server can only be started for a loopback REDIS_URL`);
  }
  const port = u.port || '6379';
  const dir = join(dataDir, 'redis');
  mkdirSync(dir, { recursive: true });
  const pid = await watchdog.spawn({
    name: 'redis-server',
    command: bin,
    args: ['--bind', '127.0.0.1', '--port', port, '--dir', dir, '--save', '3600 1 300 100', '--appendonly', 'no', '--protected-mode', 'yes'],
    logFile: join(dataDir, 'redis.log'),
    stop: [
      { signal: 'SIGTERM', waitMs: 3_000 },
      { signal: 'SIGKILL', waitMs: 1_000 },
    ],
  });
  for (let i = 0; i < 50; i++) {
    if (await redisAnswers(url, 500)) {
      log(`started redis-server (pid ${pid}) on 127.0.0.1:${port} (files in ${dir})`);
      return true;
    }
    if (!isAlive(pid)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`redis-server did not start on 127.0.0.1:${port}; see ${join(dataDir, 'redis.log')}`);
}
