import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (webhook URLs and tokens, KPI HTTP sync credentials): AES-256-GCM (node:crypto)
 * under a key derived with HKDF-SHA256 from the one SERVICE_ENCRYPTION_KEY setting and a purpose
 * label, so each use has its own key and a ciphertext of one purpose never opens under another.
 * Every value gets a fresh 96-bit nonce; optional additional authenticated data binds a
 * ciphertext to its row (organization, owner, name), so a copied value does not decrypt elsewhere.
 * `keyId` (16 hex characters of SHA-256 of the derived key) tells which key sealed a value.
 * Plaintext exists only in memory; callers never return or log it.
 */
export interface Sealed {
  nonce: Buffer;
  ciphertext: Buffer;
  authTag: Buffer;
  keyId: string;
}

export class SecretBox {
  private readonly key: Buffer;
  readonly keyId: string;

  constructor(masterKey: string, purpose: string) {
    this.key = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), `service-secret-box:${purpose}:v1`, 32));
    this.keyId = createHash('sha256').update(this.key).digest('hex').slice(0, 16);
  }

  seal(plain: string, aad = ''): Sealed {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    cipher.setAAD(Buffer.from(aad, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return { nonce, ciphertext, authTag: cipher.getAuthTag(), keyId: this.keyId };
  }

  /** The plaintext, or null when sealed under another key or purpose, for other AAD, or tampered with. */
  open(s: Sealed, aad = ''): string | null {
    if (s.keyId !== this.keyId) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, s.nonce);
      decipher.setAAD(Buffer.from(aad, 'utf8'));
      decipher.setAuthTag(s.authTag);
      return Buffer.concat([decipher.update(s.ciphertext), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }

  /**
   * One text column: `v2.<keyId>.<nonce>.<tag>.<ciphertext>` (base64url parts) when sealed with
   * additional data, `v1.…` without. The prefix only says which to expect: relabelling a value
   * cannot make it open without its additional data (the tag covers it).
   */
  sealText(plain: string, aad = ''): string {
    const s = this.seal(plain, aad);
    return [aad ? 'v2' : 'v1', s.keyId, s.nonce.toString('base64url'), s.authTag.toString('base64url'), s.ciphertext.toString('base64url')].join('.');
  }

  /** The plaintext of a `v1` value (no additional data; `aad` must be empty) or a `v2` value sealed with `aad`; null otherwise. */
  openText(stored: string, aad = ''): string | null {
    const [v, keyId, nonce, tag, ct] = stored.split('.');
    if ((v !== 'v1' && v !== 'v2') || (v === 'v2') !== (aad !== '') || !keyId || !nonce || !tag || ct === undefined) return null;
    return this.open({ keyId, nonce: Buffer.from(nonce, 'base64url'), authTag: Buffer.from(tag, 'base64url'), ciphertext: Buffer.from(ct, 'base64url') }, aad);
  }
}

/** Whether a text value was sealed with additional data (`v2`) rather than without (`v1`, older values). */
export const isBoundText = (stored: string): boolean => stored.startsWith('v2.');
