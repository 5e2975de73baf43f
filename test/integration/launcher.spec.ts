import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { jest } from '@jest/globals';
import Redis from 'ioredis';
import { freePort } from '../support/ports';

/**
 * `npm start` end to end, against the BUILT app: the launcher starts the embedded PostgreSQL (no
 * DATABASE_URL), runs the migrations, forks the API and the worker, stops gracefully on SIGTERM
 * and reuses its data on the next start. Slow (a build, an initdb, two boots), hence the timeout.
 */
jest.setTimeout(180_000);

/** Jest runs from the project root (ESM mode has no __dirname). */
const ROOT = resolve(process.cwd());
const LAUNCHER = join(ROOT, 'dist/src/launcher.js');
const REDIS_URL = 'redis://127.0.0.1:6379/12';
/** Variables the jest global setup puts into process.env that must not leak into the launcher. */
const STRIPPED = [
  'DATABASE_URL',
  'DATA_DIR',
  'REDIS_URL',
  'QUEUE_PREFIX',
  'NODE_ENV',
  'LOG_LEVEL',
  'PORT',
  'HOST',
  'EMBEDDED_PG_PORT',
  'SESSION_SECRET',
  'MIGRATIONS_RUN',
];

interface Launched {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function launch(env: Record<string, string>): Launched {
  const base: Record<string, string | undefined> = { ...process.env };
  for (const k of STRIPPED) delete base[k];
  // detached: its own process group, so a failed test can still stop the launcher, the API, the
  // worker and the postmaster together.
  const child = spawn(process.execPath, [LAUNCHER], { cwd: ROOT, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) => child.once('exit', (code, signal) => res({ code, signal })));
  return { child, output: () => out, exited };
}

const running = (l: Launched) => l.child.exitCode === null && l.child.signalCode === null;
const tail = (l: Launched | undefined) => (l ? l.output().split('\n').slice(-40).join('\n') : '');

/** Races `p` against a timeout and always clears the timer (no stray timer may outlive the test). */
async function within<T>(p: Promise<T>, ms: number, message: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, rej) => {
    timer = setTimeout(() => rej(new Error(message())), ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Last resort for a failed test: the whole process group. */
function killGroup(l: Launched | undefined): void {
  if (!l?.child.pid) return;
  try {
    process.kill(-l.child.pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}

async function waitForHealth(l: Launched, base: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (!running(l)) throw new Error(`launcher exited (${l.child.exitCode ?? l.child.signalCode}) before /health answered:\n${tail(l)}`);
    try {
      const r = await fetch(`${base}/health`, { signal: AbortSignal.timeout(2000) });
      if (r.status === 200) return;
      last = `${r.status} ${await r.text()}`;
    } catch (e) {
      last = String((e as Error).message);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`/health did not answer 200 within ${timeoutMs} ms (last: ${last}):\n${tail(l)}`);
}

async function stopGracefully(l: Launched, timeoutMs = 60_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  l.child.kill('SIGTERM');
  return within(l.exited, timeoutMs, () => `launcher did not exit within ${timeoutMs} ms of SIGTERM:\n${tail(l)}`);
}

const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('launcher (npm start): embedded PostgreSQL, API + worker, graceful stop, restart on the same data', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'service-launcher-'));
  // mkdtemp makes the directory 0700. As root, the embedded PostgreSQL runs as the `postgres` user,
  // which must be able to traverse DATA_DIR to reach DATA_DIR/postgres (a `./.data` made by the app
  // is 0755, so `npm start` is unaffected).
  chmodSync(dataDir, 0o755);
  const queuePrefix = `launcher-test-${randomBytes(4).toString('hex')}`;
  let current: Launched | undefined;

  beforeAll(() => {
    // The test runs what `npm start` runs, so it builds first. LAUNCHER_TEST_NO_BUILD=1 reuses an
    // existing dist/ (faster reruns while working on the test itself).
    if (process.env.LAUNCHER_TEST_NO_BUILD === '1' && existsSync(LAUNCHER)) return;
    const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    if (build.status !== 0 || !existsSync(LAUNCHER)) {
      throw new Error(`npm run build failed (exit ${build.status}); the launcher test needs dist/:\n${build.stdout}\n${build.stderr}`);
    }
  });

  afterEach(() => {
    if (current && running(current)) killGroup(current);
    current = undefined;
  });

  afterAll(async () => {
    rmSync(dataDir, { recursive: true, force: true });
    const r = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await r.connect();
      const keys = await r.keys(`${queuePrefix}:*`);
      if (keys.length) await r.del(...keys);
    } catch {
      /* best effort */
    } finally {
      r.disconnect();
    }
  });

  it('starts from nothing, serves requests, stops with exit code 0 on SIGTERM, and a second start reuses the data', async () => {
    const [port, pgPort] = [await freePort(), await freePort()];
    const base = `http://127.0.0.1:${port}`;
    const env = {
      NODE_ENV: 'development',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      REDIS_URL,
      EMBEDDED_PG_PORT: String(pgPort),
      QUEUE_PREFIX: queuePrefix,
      LOG_LEVEL: 'warn',
    };

    // First start: initdb, migrations, API + worker.
    current = launch(env);
    await waitForHealth(current, base);
    expect(await (await fetch(`${base}/health`)).json()).toEqual({ status: 'ok', database: 'ok', redis: 'ok' });
    expect(existsSync(join(dataDir, 'postgres', 'PG_VERSION'))).toBe(true);

    const email = `launcher-${randomBytes(4).toString('hex')}@example.com`;
    const password = 'launcher-pass-1';
    const signup = await fetch(`${base}/api/auth/signup`, json({ email, password, display_name: 'Launcher' }));
    expect(signup.status).toBe(201);
    const cookie = String(signup.headers.get('set-cookie')).split(';')[0];
    expect(cookie).toMatch(/^sid=/);

    const first = await stopGracefully(current);
    expect({ ...first, output: first.code === 0 ? '' : tail(current) }).toEqual({ code: 0, signal: null, output: '' });
    // Nothing is left listening.
    await expect(fetch(`${base}/health`, { signal: AbortSignal.timeout(2000) })).rejects.toThrow();

    // Second start on the same DATA_DIR: no initdb, same database, same session secret.
    current = launch(env);
    await waitForHealth(current, base);
    expect(current.output()).not.toMatch(/initialising embedded PostgreSQL/);
    const login = await fetch(`${base}/api/auth/login`, json({ email, password }));
    expect(login.status).toBe(200);
    expect(((await login.json()) as { user: unknown }).user).toMatchObject({ email });
    const me = await fetch(`${base}/api/auth/me`, { headers: { cookie } });
    expect(me.status).toBe(200); // the session from the first run survived the restart

    const second = await stopGracefully(current);
    expect(second).toEqual({ code: 0, signal: null });
  });

  it('without a reachable Redis and no redis-server on PATH, exits non-zero and says how to install Redis', async () => {
    const emptyBin = mkdtempSync(join(tmpdir(), 'service-nobin-'));
    try {
      const [port, redisPort] = [await freePort(), await freePort()];
      current = launch({
        NODE_ENV: 'development',
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        // The test database: this case is about Redis, not the embedded PostgreSQL.
        DATABASE_URL: process.env.DATABASE_URL!,
        REDIS_URL: `redis://127.0.0.1:${redisPort}`,
        QUEUE_PREFIX: queuePrefix,
        PATH: emptyBin,
      });
      const launched = current;
      const { code } = await within(launched.exited, 30_000, () => `launcher still running after 30 s:\n${tail(launched)}`);
      expect(code).not.toBe(0);
      expect(code).not.toBeNull();
      expect(current.output()).toMatch(/install redis/i);
      expect(current.output()).toMatch(/REDIS_URL/);
      // It did not get as far as serving requests.
      await expect(fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(2000) })).rejects.toThrow();
    } finally {
      rmSync(emptyBin, { recursive: true, force: true });
    }
  });
});
