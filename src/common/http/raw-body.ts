import { applyDecorators } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiConsumes } from '@nestjs/swagger';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Fastify route config key of a raw-body route: its body limit in bytes. */
const RAW_BODY_LIMIT = 'rawBodyLimit';
/** Route config key of a raw-body route that also takes `application/x-www-form-urlencoded` bodies (kept raw as well). */
const RAW_BODY_FORM = 'rawBodyForm';

/**
 * A route that needs the exact bytes of its JSON body (signed provider callbacks: the signature is
 * verified over the raw body before anything parses it). The body stays an unparsed Buffer
 * (`rawBodyOf`) and is at most `limitBytes` long: Fastify refuses a longer one with 413 while
 * it streams in, before any of it is kept (registerRawBodyRoutes). The handler parses the JSON
 * itself after verifying the signature and then applies `assertWellFormedInput` to it.
 * `form: true` keeps form bodies raw too (providers that may sign a form, e.g. GitHub's
 * `application/x-www-form-urlencoded` deliveries with a `payload` field): the form parser hands
 * the Buffer on for such a route instead of answering 415.
 */
export const RawJsonBody = (limitBytes: number, opts: { form?: boolean } = {}) =>
  applyDecorators(
    RouteConfig({ [RAW_BODY_LIMIT]: limitBytes, ...(opts.form ? { [RAW_BODY_FORM]: true } : {}) }),
    opts.form ? ApiConsumes('application/json', 'application/x-www-form-urlencoded') : ApiConsumes('application/json'),
  );

const limitOf = (config: unknown): number | undefined => {
  const v = (config as Record<string, unknown> | undefined)?.[RAW_BODY_LIMIT];
  return typeof v === 'number' ? v : undefined;
};

/** True when the request's route keeps its body raw (the JSON parser then hands the Buffer on unparsed). */
export const wantsRawBody = (req: FastifyRequest): boolean => limitOf(req.routeOptions?.config) !== undefined;

/** True when the request's route keeps form bodies raw as well (RawJsonBody with `form: true`). */
export const wantsRawForm = (req: FastifyRequest): boolean =>
  (req.routeOptions?.config as unknown as Record<string, unknown> | undefined)?.[RAW_BODY_FORM] === true;

/** Gives every raw-body route its own body limit (registered before the routes are). */
export function registerRawBodyRoutes(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    const limit = limitOf(route.config);
    if (limit !== undefined) route.bodyLimit = limit;
  });
}

/** The raw body of a raw-body route (empty when the request had none). */
export const rawBodyOf = (req: FastifyRequest): Buffer => (Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));
