import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AppConfig } from './config/config';
import { HttpLog, Logger, registerRequestLogging } from './common/logging/logging.module';
import { AllExceptionsFilter } from './common/errors/http-exception.filter';
import { setupOpenApi } from './common/openapi/openapi';
import { AppValidationPipe } from './common/http/validation';
import { registerBodyTimeout, httpServerOptions } from './common/http/timeouts';
import { registerWellFormedInput } from './common/http/well-formed';
import { registerRawBodyRoutes, wantsRawBody } from './common/http/raw-body';
import { AppModule } from './app.module';
import { MetricsService } from './modules/ops/metrics.service';
import { registerOAuthFormBodies } from './modules/oauth/form-body';

const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** Builds the API application (used by main.ts, the tests and the benchmark). */
export async function createApp(config: AppConfig): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    ...httpServerOptions(config),
    trustProxy: config.trustProxy,
    // No Nest middleware (request logging is two Fastify hooks: registerRequestLogging), so no
    // @fastify/middie and its per-request pass; a module that applies middleware fails to start.
    skipMiddie: true,
    bodyLimit: 2 * 1024 * 1024,
    // A client-supplied X-Request-Id is kept when well-formed, so logs correlate across services.
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => {
      const h = req.headers['x-request-id'];
      return typeof h === 'string' && REQUEST_ID.test(h) ? h : randomUUID();
    },
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config), adapter, { bufferLogs: true });
  app.useLogger(app.get(Logger));
  await app.register(fastifyCookie as never);
  // multipart/form-data parsing (attachment uploads); JSON routes are unaffected. Per-route limits are set by the reader.
  await app.register(fastifyMultipart as never, { limits: { fileSize: 10 * 1024 * 1024, files: 1, fields: 20, parts: 25 } });
  // A JSON content type with an empty body (common for body-less POSTs such as acknowledgements)
  // means "no body", not a parse error; anything else goes through Fastify's own safe JSON parser.
  const json = adapter.getInstance().getDefaultJsonParser('error', 'error');
  app.useBodyParser('application/json', { bodyLimit: 2 * 1024 * 1024 }, (req, body, done) => {
    // signed callbacks verify the exact bytes before anything parses them (src/common/http/raw-body.ts)
    if (wantsRawBody(req as never)) return done(null, body);
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    void json(req as never, text, done);
  });
  registerOAuthFormBodies(app);
  app.useGlobalFilters(new AllExceptionsFilter());
  app.useGlobalPipes(new AppValidationPipe());
  const metrics = app.get(MetricsService);
  const fastify = app.getHttpAdapter().getInstance();
  registerRequestLogging(fastify, app.get(HttpLog));
  registerRawBodyRoutes(fastify);
  registerWellFormedInput(fastify);
  registerBodyTimeout(fastify, config.httpBodyTimeoutMs);
  fastify.addHook('onSend', async (req, reply, payload) => {
    reply.header('x-request-id', req.id);
    return payload;
  });
  fastify.addHook('onResponse', async (req, reply) => {
    metrics.observe(req.method, req.routeOptions?.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
  });
  setupOpenApi(app);
  app.enableShutdownHooks();
  return app;
}
