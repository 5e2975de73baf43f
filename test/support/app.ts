import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createApp } from '../../src/app.factory';
import { servedOpenApiDocument } from '../../src/common/openapi/openapi';
import { type AppConfig, loadConfig } from '../../src/config/config';
import { ResponseConformance } from './openapi-conformance';

export interface TestApp {
  app: NestFastifyApplication;
  config: AppConfig;
  db: DataSource;
  /** A fresh anonymous HTTP client. */
  http: () => request.Agent;
  close: () => Promise<void>;
}

/**
 * The real API (Fastify, PostgreSQL, Redis) in-process, with configuration overrides. Every response
 * it sends is checked against its OpenAPI document (openapi-conformance.ts).
 */
export async function startTestApp(overrides: Record<string, string> = {}): Promise<TestApp> {
  const config = loadConfig({ ...process.env, ...overrides });
  const app = await createApp(config);
  try {
    const doc = servedOpenApiDocument(app);
    if (!doc) throw new Error('the app serves no OpenAPI document');
    new ResponseConformance(doc).install(app.getHttpAdapter().getInstance());
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  } catch (e) {
    await app.close().catch(() => undefined); // never leave pools open: Jest would hang
    throw e;
  }
  const server = app.getHttpServer();
  return {
    app,
    config,
    db: app.get(DataSource),
    http: () => request.agent(server),
    close: () => app.close(),
  };
}
