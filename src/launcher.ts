import { type ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import { loadConfigOrExit } from './config/config';
import { type EmbeddedPostgresHandle, startEmbeddedPostgres } from './database/embedded-postgres';
import { runMigrations } from './database/migrate';
import { ensureRedis } from './database/redis-launcher';

/**
 * `npm start`: brings up everything a new user needs on one machine. Without DATABASE_URL it
 * starts the embedded PostgreSQL (data under DATA_DIR); without a reachable Redis it starts a
 * local redis-server when one is installed; it runs the migrations, then runs the API and the
 * worker as two child processes and stops everything on SIGINT/SIGTERM. In production, run
 * `start:api` and `start:worker` as separate processes instead.
 */
const log = (m: string) => process.stdout.write(`${JSON.stringify({ level: 30, time: Date.now(), process: 'launcher', msg: m })}\n`);

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  let pg: EmbeddedPostgresHandle | null = null;
  let redisChild: ChildProcess | null = null;
  const children: ChildProcess[] = [];
  let stopping = false;

  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    log('shutting down');
    await Promise.all(
      children.map(
        (c) =>
          new Promise<void>((resolve) => {
            if (c.exitCode !== null || c.signalCode !== null) return resolve();
            const t = setTimeout(() => c.kill('SIGKILL'), 15_000);
            c.once('exit', () => {
              clearTimeout(t);
              resolve();
            });
            c.kill('SIGTERM');
          }),
      ),
    );
    redisChild?.kill('SIGTERM');
    await pg?.stop().catch(() => undefined);
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    if (config.nodeEnv === 'production') {
      process.stderr.write('DATABASE_URL is required when NODE_ENV=production (the embedded PostgreSQL is for development).\n');
      process.exit(78);
    }
    pg = await startEmbeddedPostgres(config.dataDir, config.embeddedPgPort, log);
    databaseUrl = pg.url;
  }
  try {
    redisChild = await ensureRedis(config.redisUrl, config.dataDir, process.env.PATH, log);
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    await pg?.stop().catch(() => undefined);
    process.exit(69);
  }
  if (config.migrationsRun) {
    const ran = await runMigrations({ databaseUrl, databasePoolSize: 1 });
    log(ran.length ? `applied migrations: ${ran.join(', ')}` : 'schema is up to date');
  }
  const env = { ...process.env, DATABASE_URL: databaseUrl, REDIS_URL: config.redisUrl, DATA_DIR: config.dataDir, MIGRATIONS_RUN: '0' };
  for (const name of ['main', 'worker']) {
    const child = fork(join(__dirname, `${name}.js`), [], { env, stdio: 'inherit' });
    child.on('exit', (code, signal) => {
      if (!stopping) {
        log(`${name} exited (${signal ?? code}); stopping`);
        void stop(code || 1);
      }
    });
    children.push(child);
  }
}

main().catch((e) => {
  process.stderr.write(`start failed: ${e?.stack ?? e}\n`);
  process.exit(1);
});
