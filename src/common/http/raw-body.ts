import { applyDecorators } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiConsumes } from '@nestjs/swagger';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Fastify route config key of a raw-body route: its body limit in bytes. */
const RAW_BODY_LIMIT = 'rawBodyLimit';

/**
 * A route that needs the exact bytes of its JSON body (signed provider callbacks: the signature is
 * verified over the raw body before anything parses it). The body stays an unparsed Buffer
 * (`rawBodyOf`) and is at most `limitBytes` long: Fastify refuses a longer one with 413 while
 * it streams in, before any of it is kept (registerRawBodyRoutes). The handler parses the JSON
 * itself after verifying the signature and then applies `assertWellFormedInput` to it.
 */
export const RawJsonBody = (limitBytes: number) => applyDecorators(RouteConfig({ [RAW_BODY_LIMIT]: limitBytes }), ApiConsumes('application/json'));

const limitOf = (config: unknown): number | undefined => {
  const v = (config as Record<string, unknown> | undefined)?.[RAW_BODY_LIMIT];
  return typeof v === 'number' ? v : undefined;
};

/** True when the request's route keeps its body raw (the JSON parser then hands the Buffer on unparsed). */
export const wantsRawBody = (req: FastifyRequest): boolean => limitOf(req.routeOptions?.config) !== undefined;

/** Gives every raw-body route its own body limit (registered before the routes are). */
export function registerRawBodyRoutes(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    const limit = limitOf(route.config);
    if (limit !== undefined) route.bodyLimit = limit;
  });
}

/** The raw body of a raw-body route (empty when the request had none). */
export const rawBodyOf = (req: FastifyRequest): Buffer => (Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));
