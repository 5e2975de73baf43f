/**
 * A Fastify reply serializer (`reply.serializer(serializeOnce)`) for handlers that return the same,
 * never-mutated response object to many requests (kept results, e.g. the strategy audit): the JSON
 * bytes are made on the first send and kept as long as the object itself (WeakMap), so a repeated
 * response costs no serialization. Any other payload (a fresh object, an error body) is plain
 * JSON.stringify, as Fastify's default. With a custom serializer Fastify sets no content type:
 * the caller sets `application/json; charset=utf-8`.
 */
const kept = new WeakMap<object, Buffer>();

function serialize(payload: unknown): string | Buffer {
  // Fastify passes strings through a custom serializer too: they are already the body (error filter)
  if (typeof payload === 'string') return payload;
  if (payload === null || typeof payload !== 'object') return JSON.stringify(payload);
  let bytes = kept.get(payload);
  if (!bytes) {
    bytes = Buffer.from(JSON.stringify(payload), 'utf8');
    kept.set(payload, bytes);
  }
  return bytes;
}

/** Fastify's serializer type says string; it sends a Buffer as it is (content-length from its size). */
export const serializeOnce = serialize as (payload: unknown) => string;
