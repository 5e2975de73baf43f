import { type ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import { loadConfigOrExit } from './config/config';
import { EmbeddedPostgresError, startEmbeddedPostgres } from './database/embedded-postgres';
import { runMigrations } from './database/migrate';
import { ensureRedis } from './database/redis-launcher';
import { Watchdog } from './process/watchdog-handle';
import { CHILD_STOP_MS } from './process/watchdog-protocol';

/**
 * `npm start`: brings up everything a new user needs on one machine. Without DATABASE_URL it
 * starts the embedded PostgreSQL (data under DATA_DIR); without a reachable Redis it starts a
 * local redis-server when one is installed; it runs the migrations, then runs the API and the
 * worker as two child processes. SIGINT, SIGTERM or SIGHUP stop everything in order: the API and
 * the worker drain first, then the servers (through the watchdog, src/process/watchdog.ts, which
 * also stops them when this process is killed). In production, run `start:api` and
 * `start:worker` as separate processes instead.
 */
const log = (m: string) => {
  try {
    process.stdout.write(`${JSON.stringify({ level: 30, time: Date.now(), process: 'launcher', msg: m })}\n`);
  } catch {
    /* stdout is gone (closed terminal or pipe): keep stopping regardless */
  }
};
process.stdout.on('error', () => undefined);

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const watchdog = new Watchdog(log);
  const children: { name: string; child: ChildProcess }[] = [];
  let stopping: Promise<void> | null = null;

  const stop = (code: number, reason: string): Promise<void> =>
    (stopping ??= (async () => {
      const running = children.length > 0 || watchdog.started;
      if (running) log(`stopping (${reason}): the API and the worker first, then the database`);
      await Promise.all(children.map(({ name, child }) => stopChild(name, child)));
      await watchdog.stop();
      if (running) log('stopped');
      process.exit(code);
    })());
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop(0, `received ${signal}`));
  /** A start step failed: say why (the message alone when the user can fix it), stop what runs, exit non-zero. */
  const fail = async (e: unknown, code: number, messageOnly: boolean) => {
    if (stopping) return; // a signal arrived meanwhile; its stop is under way
    process.stderr.write(`start failed: ${messageOnly ? (e as Error).message : ((e as Error)?.stack ?? String(e))}\n`);
    await stop(code, 'start failed');
  };

  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    if (config.nodeEnv === 'production') {
      process.stderr.write('DATABASE_URL is required when NODE_ENV=production (the embedded PostgreSQL is for development).\n');
      process.exit(78);
    }
    try {
      databaseUrl = (await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.embeddedPgPort, watchdog, log })).url;
    } catch (e) {
      return fail(e, e instanceof EmbeddedPostgresError ? 69 : 1, e instanceof EmbeddedPostgresError);
    }
  }
  try {
    await ensureRedis(config.redisUrl, config.dataDir, process.env.PATH, watchdog, log);
  } catch (e) {
    return fail(e, 69, true);
  }
  try {
    if (config.migrationsRun) {
      const ran = await runMigrations({ databaseUrl, databasePoolSize: 1 });
      log(ran.length ? `applied migrations: ${ran.join(', ')}` : 'schema is up to date');
    }
  } catch (e) {
    return fail(e, 1, false);
  }
  if (stopping) return;
  const env = { ...process.env, DATABASE_URL: databaseUrl, REDIS_URL: config.redisUrl, DATA_DIR: config.dataDir, MIGRATIONS_RUN: '0' };
  for (const [name, file] of [
    ['API', 'main.js'],
    ['worker', 'worker.js'],
  ]) {
    const child = fork(join(__dirname, file), [], { env, stdio: 'inherit' });
    child.on('exit', (code, signal) => {
      if (!stopping) void stop(code || 1, `the ${name} exited (${signal ?? `code ${code}`})`);
    });
    children.push({ name, child });
    log(`started the ${name} (pid ${child.pid})`);
  }
  watchdog.guard(children.map(({ child }) => child.pid!));
  // From here on a server that exits stops everything (while starting, the step waiting for it reports it).
  watchdog.onUnexpectedExit((name, how) => void stop(1, `${name} exited unexpectedly (${how})`));
}

/** SIGTERM, then SIGKILL after CHILD_STOP_MS; resolves when the process is gone. */
function stopChild(name: string, child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      log(`the ${name} stopped (${child.signalCode ?? `code ${child.exitCode}`})`);
      resolve();
    };
    if (child.exitCode !== null || child.signalCode !== null) return done();
    const timer = setTimeout(() => {
      log(`the ${name} did not stop within ${CHILD_STOP_MS} ms; killing it`);
      child.kill('SIGKILL');
    }, CHILD_STOP_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      done();
    });
    child.kill('SIGTERM');
  });
}

main().catch((e) => {
  process.stderr.write(`start failed: ${e?.stack ?? e}\n`);
  process.exit(1);
});
