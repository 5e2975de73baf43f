import { BullModule } from '@nestjs/bull';
import { type DynamicModule, Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { LogFn, Logger } from 'pino';
import type { AppConfig } from './config/config';
import { ConfigModule } from './config/config.module';
import { CommonModule } from './common/common.module';
import { LoggingModule } from './common/logging/logging.module';
import { Clock, SystemClock } from './common/clock/clock';
import { dataSourceOptions } from './database/data-source-options';

/**
 * Nest's boot chatter (a line per module and per route) is logged at debug instead of info, so a
 * start shows the few lines that matter (e.g. "API listening on …").
 */
const QUIET_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);
function quietNestBoot(this: Logger, args: Parameters<LogFn>, method: LogFn, level: number): void {
  const first = args[0] as { context?: unknown } | undefined;
  if (level === this.levels.values.info && typeof first?.context === 'string' && QUIET_CONTEXTS.has(first.context)) return this.debug(...args);
  method.apply(this, args);
}

/** Probes that would drown the request log. */
const QUIET_PATHS = new Set(['/health', '/metrics']);

/** What both processes share: configuration, logging, database, CQRS buses, Bull, common services. */
@Module({})
export class InfrastructureModule {
  static forRoot(config: AppConfig, processName: 'api' | 'worker'): DynamicModule {
    return {
      module: InfrastructureModule,
      global: true,
      imports: [
        ConfigModule.forRoot(config),
        LoggingModule.forRoot({
          level: config.logLevel,
          base: { process: processName },
          quietPath: (path) => QUIET_PATHS.has(path),
          hooks: { logMethod: quietNestBoot },
          // request lines carry no headers; a request object logged by hand must not leak credentials either
          redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'], censor: '[redacted]' },
        }),
        TypeOrmModule.forRoot(dataSourceOptions(config)),
        CqrsModule.forRoot(),
        BullModule.forRoot({ redis: config.redisUrl, prefix: config.queuePrefix }),
        CommonModule,
      ],
      providers: [{ provide: Clock, useClass: SystemClock }],
      exports: [Clock],
    };
  }
}
