import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { SecretBox } from '../../common/crypto/secret-box';

export type ConnectionSecretName = 'token' | 'webhook_secret';

/**
 * Credentials of deployment connections at rest: sealed by the shared SecretBox (purpose
 * `deployment-connections`), bound to their organization, connection and name, so a value copied
 * to another row does not open. Plaintext exists only in memory while a request uses it.
 */
@Injectable()
export class ConnectionSecrets {
  private readonly box: SecretBox;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.box = new SecretBox(config.encryptionKey, 'deployment-connections');
  }

  seal(orgId: string, connectionId: string, name: ConnectionSecretName, value: string): string {
    return this.box.sealText(value, `${orgId}:${connectionId}:${name}`);
  }

  /** The plaintext, or null when it does not open (another key, tampered with). */
  open(orgId: string, connectionId: string, name: ConnectionSecretName, sealed: string): string | null {
    return this.box.openText(sealed, `${orgId}:${connectionId}:${name}`);
  }
}
