import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type DynamicModule, Inject, Injectable, type LoggerService, type MiddlewareConsumer, Module, type NestModule, RequestMethod } from '@nestjs/common';
import type { Logger as Pino } from 'pino';
import { pinoHttp, type HttpLogger, type Options } from 'pino-http';

/**
 * Structured logging with pino: the Nest `LoggerService` of both processes and, in the API, one
 * pino-http line per request. Logs written while a request is handled go through that request's
 * child logger, so they carry its id. (In place of nestjs-pino, whose releases for Nest 12 require
 * Node 22.12: docs/DECISIONS.md, "Supported Node versions".)
 */
const OPTIONS = Symbol('pino-http options');
const requestLogger = new AsyncLocalStorage<Pino>();

type Level = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

/** The pino-http instance (and its root logger) of the process, made once from the module's options. */
@Injectable()
export class HttpLog {
  readonly http: HttpLogger;
  constructor(@Inject(OPTIONS) options: Options) {
    this.http = pinoHttp(options);
  }
}

/** Nest's LoggerService on pino: the context (Nest's last argument) goes in the `context` field. */
@Injectable()
export class Logger implements LoggerService {
  constructor(private readonly httpLog: HttpLog) {}

  verbose(message: unknown, ...rest: unknown[]): void {
    this.call('trace', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.call('debug', message, rest);
  }
  log(message: unknown, ...rest: unknown[]): void {
    this.call('info', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.call('warn', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.call('error', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    this.call('fatal', message, rest);
  }

  private call(level: Level, message: unknown, rest: unknown[]): void {
    const pino = requestLogger.getStore() ?? this.httpLog.http.logger;
    const fields: Record<string, unknown> = {};
    let params = rest;
    if (rest.length > 0) {
      fields.context = rest[rest.length - 1];
      params = rest.slice(0, -1);
    }
    if (message instanceof Error) {
      fields.err = message;
      pino[level](fields, ...(params as []));
    } else if (typeof message === 'object' && message !== null) {
      pino[level](Object.assign(fields, message), ...(params as []));
    } else if (level === 'error' && typeof message === 'string' && params.length === 1 && typeof params[0] === 'string' && /\n\s*at /.test(params[0])) {
      // Nest's exception handlers call error(message, stack, context)
      const err = new Error(message);
      err.stack = params[0];
      pino.error({ ...fields, err });
    } else {
      pino[level](fields, String(message), ...(params as []));
    }
  }
}

@Module({})
export class LoggingModule implements NestModule {
  constructor(private readonly log: HttpLog) {}

  static forRoot(options: Options): DynamicModule {
    return {
      module: LoggingModule,
      global: true,
      providers: [{ provide: OPTIONS, useValue: options }, HttpLog, Logger],
      exports: [HttpLog, Logger],
    };
  }

  /** Every HTTP route (the worker has none): pino-http, then the request's logger for what the handler logs. */
  configure(consumer: MiddlewareConsumer): void {
    const http = this.log.http;
    consumer
      .apply((req: IncomingMessage & { log?: Pino }, res: ServerResponse, next: () => void) => {
        http(req, res);
        requestLogger.run(req.log ?? http.logger, next);
      })
      .forRoutes({ path: '{*path}', method: RequestMethod.ALL }); // every path, `/` included (`{/*splat}` matched none under Fastify)
  }
}
