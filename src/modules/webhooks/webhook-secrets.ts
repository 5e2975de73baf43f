import { createHash, createHmac, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { SecretBox, isBoundText } from '../../common/crypto/secret-box';
import { APP_CONFIG, type AppConfig } from '../../config/config';

/** Which row and column a sealed webhook value belongs to (its additional authenticated data). */
export type SecretBinding =
  | { kind: 'version'; orgId: string; webhookId: string; versionId: string; field: 'url' | 'bearer' | 'standard' }
  | { kind: 'signing-key'; orgId: string; webhookId: string; version: number };

const aadOf = (b: SecretBinding): string =>
  b.kind === 'version'
    ? `webhook-version:v1:${b.orgId}:${b.webhookId}:${b.versionId}:${b.field}`
    : `webhook-signing-key:v1:${b.orgId}:${b.webhookId}:${b.version}`;

/** A sealed value that does not open here: sealed under another key, for another row or column, or tampered with. */
export class UnreadableSecretError extends Error {
  constructor(b: SecretBinding) {
    super(`Unreadable webhook secret (${b.kind === 'version' ? `version ${b.versionId} ${b.field}` : `signing key v${b.version}`} of webhook ${b.webhookId})`);
    this.name = 'UnreadableSecretError';
  }
}

/**
 * Secrets of webhook destinations at rest, sealed by the shared SecretBox (purpose `webhooks`).
 * Bearer tokens and Standard Webhooks secrets must be recoverable for sending, so they are
 * encrypted, not hashed; the service signing key (SHA-256 hex of the secret shown once) and the
 * full URL are encrypted too.
 *
 * Each value is bound to its row and column (additional authenticated data: organization,
 * webhook, destination version id and field, or signing-key version; `v2` values), so a value
 * copied to another row or column does not open. Values written before the binding (`v1`, no
 * additional data) still open while they exist; the worker's maintenance job re-seals them with
 * their binding (`WebhookMaintenanceProcessor`), after which none is left.
 */
@Injectable()
export class WebhookSecrets {
  private readonly box: SecretBox;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.box = new SecretBox(config.encryptionKey, 'webhooks');
  }

  /** `plain` sealed for the row and column `b`. */
  seal(plain: string, b: SecretBinding): string {
    return this.box.sealText(plain, aadOf(b));
  }

  /** The plaintext of a value stored in row and column `b` (bound, or an older unbound value); UnreadableSecretError otherwise. */
  open(stored: string, b: SecretBinding): string {
    const plain = isBoundText(stored) ? this.box.openText(stored, aadOf(b)) : this.box.openText(stored);
    if (plain === null) throw new UnreadableSecretError(b);
    return plain;
  }

  /** An older value sealed without binding re-sealed for `b`, or null when it is already bound or does not open. */
  reseal(stored: string, b: SecretBinding): string | null {
    if (isBoundText(stored)) return null;
    const plain = this.box.openText(stored);
    return plain === null ? null : this.seal(plain, b);
  }
}

/** A new service signing secret (shown once at creation). */
export const newSigningSecret = (): string => `whsvc_${randomBytes(32).toString('base64url')}`;
/** The HMAC key of a signing secret: its SHA-256 hex digest (as the receiver computes it). */
export const signingKeyOf = (secret: string): string => createHash('sha256').update(secret).digest('hex');
/** `sha256=<hex>` over the exact raw body. */
export const serviceSignature = (signingKeyHex: string, body: string | Buffer): string =>
  `sha256=${createHmac('sha256', signingKeyHex).update(body).digest('hex')}`;

/**
 * Standard Webhooks secret: `whsec_` then canonical standard Base64 that decodes to 24..64 bytes.
 * Canonical: only the standard alphabet, correct `=` padding, and re-encoding gives the same text
 * (so non-zero trailing bits and missing padding are refused). Returns an error message or null.
 */
export function standardSecretProblem(secret: unknown): string | null {
  if (typeof secret !== 'string') return 'standard_webhooks.secret must be a string';
  if (!secret.startsWith('whsec_')) return 'standard_webhooks.secret must start with whsec_';
  const b64 = secret.slice('whsec_'.length);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 !== 0) return 'standard_webhooks.secret must be canonical standard Base64 after whsec_';
  const bytes = Buffer.from(b64, 'base64');
  if (bytes.toString('base64') !== b64) return 'standard_webhooks.secret must be canonical standard Base64 after whsec_';
  if (bytes.length < 24 || bytes.length > 64) return 'standard_webhooks.secret must decode to 24..64 bytes';
  return null;
}

/** Standard Webhooks signer of a `whsec_` secret: `v1,<base64 HMAC-SHA256(id.timestamp.body)>` (the `standardwebhooks` library). */
export type StandardSigner = (msgId: string, at: Date, body: string) => string;
export function standardSigner(whsec: string): StandardSigner {
  const wh = new StandardWebhook(whsec);
  return (msgId, at, body) => wh.sign(msgId, at, body);
}
