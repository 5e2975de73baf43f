import './process/heap-tuning';
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from './common/logging/logging.module';
import { loadConfigOrExit } from './config/config';
import { stopWhenLauncherGoes } from './process/launcher-link';
import { WorkerModule } from './worker.module';

/** The worker process: runs the Bull processors and the scheduled sweeps. */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  if (!config.databaseUrl) {
    process.stderr.write('DATABASE_URL is not set. `npm start` launches the embedded PostgreSQL; `start:worker` needs DATABASE_URL.\n');
    process.exit(78);
  }
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), { bufferLogs: true });
  app.useLogger(app.get(Logger));
  app.enableShutdownHooks();
  await app.init();
  const logger = app.get(Logger);
  logger.log('worker started', 'Bootstrap');
  stopWhenLauncherGoes(
    () => app.close(),
    (m) => logger.log(m, 'Bootstrap'),
  );
}

main().catch((e) => {
  process.stderr.write(`worker failed to start: ${e?.stack ?? e}\n`);
  process.exit(1);
});
