import './process/heap-tuning';
import 'reflect-metadata';
import { Logger } from './common/logging/logging.module';
import { loadConfigOrExit } from './config/config';
import { runMigrations } from './database/migrate';
import { createApp } from './app.factory';
import { stopWhenLauncherGoes } from './process/launcher-link';

/** The HTTP API process. */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  if (!config.databaseUrl) {
    process.stderr.write('DATABASE_URL is not set. `npm start` launches the embedded PostgreSQL; `start:api` needs DATABASE_URL.\n');
    process.exit(78);
  }
  if (config.migrationsRun) await runMigrations(config);
  const app = await createApp(config);
  await app.listen({ port: config.port, host: config.host });
  const logger = app.get(Logger);
  const base = `http://${displayHost(config.host)}:${config.port}`;
  logger.log(`API listening on ${base} (${isWildcard(config.host) ? 'all interfaces; ' : ''}Swagger UI: ${base}/api/docs)`, 'Bootstrap');
  stopWhenLauncherGoes(
    () => app.close(),
    (m) => logger.log(m, 'Bootstrap'),
  );
}

const isWildcard = (host: string) => host === '0.0.0.0' || host === '::';
/** A URL a person can open: a wildcard bind address is reached through localhost; IPv6 literals go in brackets. */
const displayHost = (host: string) => (isWildcard(host) ? 'localhost' : host.includes(':') ? `[${host}]` : host);

main().catch((e) => {
  process.stderr.write(`API failed to start: ${e?.stack ?? e}\n`);
  process.exit(1);
});
