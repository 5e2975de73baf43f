import { createHash, createHmac, randomBytes } from 'node:crypto';

export const API_KEY_PREFIX = 'sk_service_';
/** 32 random bytes = 256 bits, base64url (43 characters, RFC 6750 b64token-safe). */
export function newApiKey(): { key: string; hash: Buffer; prefix: string } {
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { key, hash: hashApiKey(key), prefix: key.slice(0, API_KEY_PREFIX.length + 6) };
}
export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}
export const API_KEY_SHAPE = /^sk_service_[A-Za-z0-9_-]{20,200}$/;

export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}
/** Session ids are stored as HMAC(SESSION_SECRET, token): a leaked table cannot be replayed. */
export function hashSessionToken(secret: string, token: string): Buffer {
  return createHmac('sha256', secret).update(token, 'utf8').digest();
}
export const SESSION_COOKIE = 'sid';
export const SESSION_TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
