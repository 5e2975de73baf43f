import { gzipSync } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Reply serialization for handlers that return the same, never-mutated response object to many
 * requests (kept results, e.g. the strategy audit): the JSON bytes, and their gzip form for
 * clients that accept it, are made on the first send and kept as long as the object itself
 * (WeakMap), so a repeated response costs neither serialization nor compression. Any other
 * payload (a fresh object, an error body) is plain JSON, as Fastify's default.
 */
const json = new WeakMap<object, Buffer>();
const gzipped = new WeakMap<object, Buffer>();

/** Bodies below this size go out as they are (compression would not pay for its header). */
const GZIP_MIN_BYTES = 1024;

/** `map`'s bytes for `payload`, made by `make` the first time. */
function kept(map: WeakMap<object, Buffer>, payload: object, make: () => Buffer): Buffer {
  let bytes = map.get(payload);
  if (!bytes) {
    bytes = make();
    map.set(payload, bytes);
  }
  return bytes;
}

/**
 * Sets the reply up for a kept response: JSON content type, `Vary: Accept-Encoding`, and a
 * serializer that sends the kept bytes (gzip when the request's Accept-Encoding prefers it over
 * identity, negotiated with q-values; `gzip;q=0` is honoured).
 */
export function serializeOnce(req: FastifyRequest, reply: FastifyReply): void {
  const header = req.headers['accept-encoding'];
  const gzip = typeof header === 'string' && negotiate(header, ['gzip', 'identity']) === 'gzip';
  reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
  // Fastify's serializer type says string; it sends a Buffer as it is (content-length from its size).
  reply.serializer(((payload: unknown): string | Buffer => {
    // strings are already the body (the error filter sends them)
    if (typeof payload === 'string') return payload;
    if (payload === null || typeof payload !== 'object') return JSON.stringify(payload);
    const bytes = kept(json, payload, () => Buffer.from(JSON.stringify(payload), 'utf8'));
    if (!gzip || bytes.length < GZIP_MIN_BYTES) return bytes;
    reply.header('content-encoding', 'gzip');
    return kept(gzipped, payload, () => gzipSync(bytes));
  }) as (payload: unknown) => string);
}
