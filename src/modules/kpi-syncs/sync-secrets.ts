import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Write-only secrets of KPI HTTP syncs, encrypted at rest with AES-256-GCM (node:crypto) under
 * KPI_SYNC_SECRETS_KEY. Each value gets a fresh 96-bit nonce; the additional authenticated data
 * binds the ciphertext to its organization, sync and name, so a row copied elsewhere does not
 * decrypt. `key_id` (first 16 hex characters of SHA-256 of the key) tells which key sealed a row.
 * Plaintext exists only in memory while a request is being built; it is never returned or logged.
 */
export interface SealedSecret {
  nonce: Buffer;
  ciphertext: Buffer;
  authTag: Buffer;
  keyId: string;
}

export const secretKeyId = (key: Buffer): string => createHash('sha256').update(key).digest('hex').slice(0, 16);
const aad = (orgId: string, syncId: string, name: string) => Buffer.from(`kpi-http-sync-secret:v1:${orgId}:${syncId}:${name}`, 'utf8');

export function sealSecret(key: Buffer, orgId: string, syncId: string, name: string, value: string): SealedSecret {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(aad(orgId, syncId, name));
  const ciphertext = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return { nonce, ciphertext, authTag: cipher.getAuthTag(), keyId: secretKeyId(key) };
}

/** The plaintext, or null when the row was sealed under another key or was tampered with. */
export function openSecret(key: Buffer, orgId: string, syncId: string, name: string, s: SealedSecret): string | null {
  if (s.keyId !== secretKeyId(key)) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, s.nonce);
    decipher.setAAD(aad(orgId, syncId, name));
    decipher.setAuthTag(s.authTag);
    return Buffer.concat([decipher.update(s.ciphertext), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
