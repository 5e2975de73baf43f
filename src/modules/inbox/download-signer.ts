import { createHmac, hkdfSync } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { sameMacText } from '../../common/crypto/mac-text';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { DOWNLOAD_URL_TTL_SECONDS } from './inbox.constants';

export interface DownloadTarget {
  orgId: string;
  emailId: string;
  attachmentId: string;
}

/**
 * Short-lived download URLs of private inbox attachments: HMAC-SHA256 (key derived with HKDF from
 * SERVICE_ENCRYPTION_KEY, its own purpose) over the organization, message, attachment and expiry.
 * A URL is refused once expired, when any part was altered, or when its expiry lies further ahead
 * than a URL this service issues.
 */
@Injectable()
export class DownloadSigner {
  private readonly key: Buffer;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.key = Buffer.from(hkdfSync('sha256', config.encryptionKey, Buffer.alloc(0), 'service-inbox-download-url:v1', 32));
  }

  private mac(t: DownloadTarget, expires: number): Buffer {
    return createHmac('sha256', this.key).update(`${t.orgId}.${t.emailId}.${t.attachmentId}.${expires}`).digest();
  }

  /** `expires` (Unix seconds) and `signature` for a URL valid DOWNLOAD_URL_TTL_SECONDS from `now`. */
  sign(t: DownloadTarget, now = Date.now()): { expires: number; signature: string } {
    const expires = Math.floor(now / 1000) + DOWNLOAD_URL_TTL_SECONDS;
    return { expires, signature: this.mac(t, expires).toString('base64url') };
  }

  /** Null when the URL is good; otherwise why it is refused (`url_expired` or `invalid_signature`). */
  check(t: DownloadTarget, expiresRaw: unknown, signatureRaw: unknown, now = Date.now()): 'url_expired' | 'invalid_signature' | null {
    if (typeof expiresRaw !== 'string' || !/^\d{1,12}$/.test(expiresRaw) || typeof signatureRaw !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(signatureRaw)) {
      return 'invalid_signature';
    }
    const expires = Number(expiresRaw);
    if (!sameMacText(signatureRaw, this.mac(t, expires).toString('base64url'))) return 'invalid_signature';
    const nowS = Math.floor(now / 1000);
    if (expires - nowS > DOWNLOAD_URL_TTL_SECONDS) return 'invalid_signature';
    if (nowS > expires) return 'url_expired';
    return null;
  }
}
