import { checkDestinationUrl } from '../../common/egress/destination';
import { EgressError } from '../../common/egress/egress-error';
import { Errors } from '../../common/errors/domain-error';
import { standardSecretProblem } from './webhook-secrets';

/** Parsing of the webhook request fields whose rules class-validator cannot express alone. */

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** The destination URL (static SSRF rules; loopback only with SERVICE_ALLOW_LOOPBACK_WEBHOOKS). */
export function parseUrl(raw: unknown, allowLoopback: boolean): string {
  try {
    return checkDestinationUrl(raw, { allowLoopback }).toString();
  } catch (e) {
    if (e instanceof EgressError) throw Errors.validation(`url: ${e.message}`);
    throw e;
  }
}

/** Origin only (scheme, host, port): what lists show. */
export const displayOf = (url: string): string => new URL(url).origin;

/** Bearer tokens go into a header: printable ASCII without spaces, 1..2048 characters. */
const BEARER_RE = /^[\x21-\x7e]{1,2048}$/;

/**
 * `auth`: `{ type: "bearer", secret }` or `{ type: "none" }`. Result: `undefined` = keep (PATCH
 * with a blank bearer secret when a token exists), `null` = no authentication, a string = new token.
 */
export function parseAuth(raw: unknown, hasToken: boolean): string | null | undefined {
  if (raw === undefined) return undefined;
  if (!isObj(raw)) throw Errors.validation('auth must be an object { type: "bearer", secret } or { type: "none" }');
  if (raw.type === 'none') return null;
  if (raw.type !== 'bearer') throw Errors.validation('auth.type must be "bearer" or "none"');
  if (blank(raw.secret)) {
    if (hasToken) return undefined;
    throw Errors.validation('auth.secret is required for a bearer destination');
  }
  if (typeof raw.secret !== 'string' || !BEARER_RE.test(raw.secret))
    throw Errors.validation('auth.secret must be 1 to 2048 printable ASCII characters without spaces');
  return raw.secret;
}

/**
 * `standard_webhooks`: omitted = keep; `enabled: false` = clear; `enabled: true` (or omitted)
 * with a blank secret = keep the existing one (400 when there is none); a valid secret replaces it.
 * Result: `undefined` keep, `null` clear, a string = the new `whsec_…` secret.
 */
export function parseStandard(raw: unknown, hasSecret: boolean): string | null | undefined {
  if (raw === undefined) return undefined;
  if (raw === null) return null;
  if (!isObj(raw)) throw Errors.validation('standard_webhooks must be an object { enabled, secret }');
  if (raw.enabled !== undefined && typeof raw.enabled !== 'boolean') throw Errors.validation('standard_webhooks.enabled must be a boolean');
  if (raw.enabled === false) return null;
  if (blank(raw.secret)) {
    if (hasSecret) return undefined;
    throw Errors.validation('standard_webhooks.secret is required (whsec_ followed by standard Base64 of 24..64 bytes)');
  }
  const problem = standardSecretProblem(raw.secret);
  if (problem) throw Errors.validation(problem);
  return raw.secret as string;
}
