import { AsyncLocalStorage } from 'node:async_hooks';
import { type DynamicModule, Inject, Injectable, type LoggerService, Module } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { type DestinationStream, pino, type Logger as Pino, type LoggerOptions } from 'pino';

/**
 * Structured logging with pino: the Nest `LoggerService` of both processes and, in the API, one
 * line per request. Logs written while a request is handled go through that request's child
 * logger, so they carry its id. (In place of nestjs-pino, whose releases for Nest 12 require
 * Node 22.12: docs/DECISIONS.md, "Supported Node versions". Not pino-http either: it built a child
 * logger per request, used or not, and ran as Nest middleware through @fastify/middie; see
 * `registerRequestLogging`.)
 */
const OPTIONS = Symbol('logging options');

export interface LoggingOptions extends LoggerOptions {
  /** Requests that get no line of their own (probes that would drown the log), by path. */
  quietPath?: (path: string) => boolean;
  /** Where lines go: standard output unless given (the tests read them). */
  destination?: DestinationStream;
}

type Level = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

/**
 * The request a log line is written for: its child logger is made on the first line that needs it.
 * It keeps the three strings it needs, not the request (whose headers and body would otherwise live
 * as long as any async resource made while handling it).
 */
class RequestScope {
  private child?: Pino;
  constructor(
    private readonly root: Pino,
    readonly id: string,
    readonly method: string,
    readonly url: string,
  ) {}

  get logger(): Pino {
    return (this.child ??= this.root.child({ req: requestFields(this) }));
  }
}
const requestScope = new AsyncLocalStorage<RequestScope>();

const requestFields = (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url.split('?')[0] });

/** The process's root pino logger, made once from the module's options. */
@Injectable()
export class HttpLog {
  readonly logger: Pino;
  readonly quietPath: (path: string) => boolean;
  constructor(@Inject(OPTIONS) { quietPath, destination, ...options }: LoggingOptions) {
    this.logger = destination ? pino(options, destination) : pino(options);
    this.quietPath = quietPath ?? (() => false);
  }
}

/**
 * The API's request logging, as Fastify hooks: the request's scope for the lines its handling
 * writes (with its id), and one line when the response is sent: `{ req: { id, method, url }, res:
 * { statusCode }, responseTime }`, "request completed" at info, or "request errored" at error for a
 * 5xx; a request whose client went away first gets "request aborted" at info (`{ req }`). Nothing is built for a request whose line the level drops.
 */
export function registerRequestLogging(fastify: FastifyInstance, log: HttpLog): void {
  const root = log.logger;
  fastify.addHook('onRequest', (req, _reply, done) => requestScope.run(new RequestScope(root, req.id, req.method, req.url), done));
  fastify.addHook('onRequestAbort', (req, done) => {
    if (root.isLevelEnabled('info')) {
      const fields = requestFields(req);
      if (!log.quietPath(fields.url)) root.info({ req: fields }, 'request aborted');
    }
    done();
  });
  fastify.addHook('onResponse', (req, reply, done) => {
    const failed = reply.statusCode >= 500;
    if (root.isLevelEnabled(failed ? 'error' : 'info')) {
      const fields = requestFields(req);
      if (!log.quietPath(fields.url)) {
        const line = { req: fields, res: { statusCode: reply.statusCode }, responseTime: Math.round(reply.elapsedTime) };
        if (failed) root.error(line, 'request errored');
        else root.info(line, 'request completed');
      }
    }
    done();
  });
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
    const pino = requestScope.getStore()?.logger ?? this.httpLog.logger;
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
export class LoggingModule {
  static forRoot(options: LoggingOptions): DynamicModule {
    return {
      module: LoggingModule,
      global: true,
      providers: [{ provide: OPTIONS, useValue: options }, HttpLog, Logger],
      exports: [HttpLog, Logger],
    };
  }
}
