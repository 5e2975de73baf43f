import 'reflect-metadata';
import { loadConfigOrExit } from './config/config';
import { runMigrations } from './database/migrate';
import { createApp } from './app.factory';

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
}

main().catch((e) => {
  process.stderr.write(`API failed to start: ${e?.stack ?? e}\n`);
  process.exit(1);
});
