import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Vercel's callback signature: `x-vercel-signature` is the hex HMAC-SHA1 of the exact raw body under
 * the connection's signing secret. Length- and format-checked first (40 hex digits), then compared
 * in constant time; anything else is false.
 */
export function verifyVercelSignature(secret: string, raw: Buffer, header: unknown): boolean {
  if (typeof header !== 'string' || !/^[0-9a-fA-F]{40}$/.test(header)) return false;
  const expected = createHmac('sha1', secret).update(raw).digest();
  const given = Buffer.from(header, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
