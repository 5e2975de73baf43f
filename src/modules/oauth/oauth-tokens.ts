import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Lifetimes (seconds). Codes are single-use and short-lived; access tokens are short; refresh tokens rotate on every use. */
export const CODE_TTL_SECONDS = 60;
export const AUTHORIZATION_REQUEST_TTL_SECONDS = 600;
export const ACCESS_TOKEN_TTL_SECONDS = 3600;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

export const ACCESS_TOKEN_PREFIX = 'mcp_at_';
export const REFRESH_TOKEN_PREFIX = 'mcp_rt_';
/** Opaque secrets: 32 random bytes, base64url (RFC 6750 b64token-safe). */
const SECRET_SHAPE = /^(mcp_at_|mcp_rt_)?[A-Za-z0-9_-]{43}$/;

export const newSecret = (prefix = ''): string => `${prefix}${randomBytes(32).toString('base64url')}`;
/** Codes and tokens are stored as SHA-256 hashes only. */
export const hashSecret = (secret: string): Buffer => createHash('sha256').update(secret, 'utf8').digest();
export const wellFormedSecret = (s: unknown, prefix: string): s is string => typeof s === 'string' && SECRET_SHAPE.test(s) && s.startsWith(prefix);

/** RFC 7636: code_verifier is 43..128 characters of [A-Z a-z 0-9 - . _ ~]. */
export const VERIFIER_SHAPE = /^[A-Za-z0-9._~-]{43,128}$/;
/** S256 code_challenge: base64url of a SHA-256 digest (43 characters, no padding). */
export const CHALLENGE_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** PKCE S256 check in constant time (the only method supported). */
export function pkceMatches(verifier: string, challenge: string): boolean {
  if (!VERIFIER_SHAPE.test(verifier) || !CHALLENGE_SHAPE.test(challenge)) return false;
  const computed = Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}
