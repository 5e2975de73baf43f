import type { FastifyRequest } from 'fastify';

/**
 * Routes whose JSON body must be verified as exact bytes before it is parsed (signed provider
 * webhooks): the JSON parser keeps the raw body on the request (`rawBodyOf`) and parses nothing;
 * the handler verifies the signature, then parses.
 */
export const RAW_BODY_PREFIXES: readonly string[] = ['/api/webhooks/github/'];

const RAW = Symbol('rawBody');

export const wantsRawBody = (url: string | undefined): boolean => {
  const path = (url ?? '').split('?')[0];
  return RAW_BODY_PREFIXES.some((p) => path.startsWith(p));
};

export function keepRawBody(req: unknown, body: Buffer): void {
  (req as Record<symbol, Buffer>)[RAW] = body;
}

/** The exact body bytes of a raw-body route (undefined when the request had none). */
export function rawBodyOf(req: FastifyRequest): Buffer | undefined {
  return (req as unknown as Record<symbol, Buffer | undefined>)[RAW] ?? (req.raw as unknown as Record<symbol, Buffer | undefined>)[RAW];
}
