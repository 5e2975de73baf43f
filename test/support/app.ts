import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createApp } from '../../src/app.factory';
import { type AppConfig, loadConfig } from '../../src/config/config';

export interface TestApp {
  app: NestFastifyApplication;
  config: AppConfig;
  db: DataSource;
  /** A fresh anonymous HTTP client. */
  http: () => request.Agent;
  close: () => Promise<void>;
}

/** The real API (Fastify, PostgreSQL, Redis) in-process, with configuration overrides. */
export async function startTestApp(overrides: Record<string, string> = {}): Promise<TestApp> {
  const config = loadConfig({ ...process.env, ...overrides });
  const app = await createApp(config);
  try {
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
