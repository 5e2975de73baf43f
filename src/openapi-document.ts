import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { OpenAPIObject } from '@nestjs/swagger';
import { AppModule } from './app.module';
import { loadConfig } from './config/config';
import { buildOpenApiDocument } from './common/openapi/openapi';

/**
 * The OpenAPI document without a database, Redis or a listening server: the API's module graph is
 * built in Nest's preview mode (no provider is instantiated, nothing connects), which holds every
 * controller and its metadata, all the document needs. Same function as the served document
 * (`buildOpenApiDocument`), so the two cannot differ.
 */
export async function openApiDocumentWithoutServices(): Promise<OpenAPIObject> {
  const placeholder = 'preview-mode-placeholder-never-used-000000';
  const config = loadConfig({
    NODE_ENV: 'test',
    // required settings; preview mode never connects or reads keys
    DATABASE_URL: 'postgres://preview@127.0.0.1:1/preview',
    SESSION_SECRET: placeholder,
    SERVICE_ENCRYPTION_KEY: placeholder,
    DATA_DIR: '/nonexistent-preview',
  });
  const app = await NestFactory.create(AppModule.forRoot(config), new FastifyAdapter(), { preview: true, logger: false });
  try {
    return buildOpenApiDocument(app);
  } finally {
    await app.close();
  }
}
