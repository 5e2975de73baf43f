import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { Errors } from '../../common/errors/domain-error';
import type { Tx } from '../../database/sql.service';
import { type SecretBinding, UnreadableSecretError, WebhookSecrets, newSigningSecret, signingKeyOf } from './webhook-secrets';
import type { WebhookRow } from './webhooks.mapper';
import { SIGNING_KEY_OVERLAP_MS } from './webhooks.constants';
import { type VersionRow, WebhooksRepository } from './webhooks.repository';

export type { VersionRow } from './webhooks.repository';

/** Webhook configuration shared by the command handlers: the destination or a 404, versions and signing keys encrypted on the way in. */
@Injectable()
export class WebhookDestinations {
  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly secrets: WebhookSecrets,
    private readonly clock: Clock,
  ) {}

  /** Webhook `id` (optionally locked), or 404. */
  async get(orgId: string, id: string, lock = false, m?: Tx): Promise<WebhookRow> {
    const row = await this.webhooks.find(orgId, id, lock, m);
    if (!row) throw Errors.notFound('Webhook not found');
    return row;
  }

  /** Destination version `versionId` (it exists: the webhook references it). */
  async version(orgId: string, versionId: string, m?: Tx): Promise<VersionRow> {
    return (await this.webhooks.findVersion(orgId, versionId, m))!;
  }

  /**
   * Writes a new destination version from plain values (`undefined` = carry the value of `from`
   * over: opened with `from`'s binding and sealed again for the new version; null = none).
   * 409 `webhook_secrets_unreadable` when a value to carry over does not open.
   */
  async writeVersion(
    orgId: string,
    webhookId: string,
    v: { url?: string; bearer?: string | null; standard?: string | null },
    from?: VersionRow,
    m?: Tx,
  ): Promise<string> {
    const id = randomUUID();
    const seal = (field: VersionField, plain: string | null | undefined, old: string | null | undefined): string | null => {
      if (plain === undefined) plain = old && from ? this.openOrConflict(old, { kind: 'version', orgId, webhookId, versionId: from.id, field }) : null;
      return plain === null ? null : this.secrets.seal(plain, { kind: 'version', orgId, webhookId, versionId: id, field });
    };
    const bearerEnc = seal('bearer', v.bearer, from?.bearer_enc);
    await this.webhooks.insertVersion(
      orgId,
      {
        id,
        webhookId,
        urlEnc: seal('url', v.url, from?.url_enc),
        authType: bearerEnc ? 'bearer' : 'none',
        bearerEnc,
        standardSecretEnc: seal('standard', v.standard, from?.standard_secret_enc),
        createdAt: this.clock.now(),
      },
      m,
    );
    return id;
  }

  /** The URL of destination version `version`, or null when it does not open (then any new URL counts as a change). */
  urlOf(orgId: string, webhookId: string, version: VersionRow): string | null {
    try {
      return this.secrets.open(version.url_enc, { kind: 'version', orgId, webhookId, versionId: version.id, field: 'url' });
    } catch (e) {
      if (e instanceof UnreadableSecretError) return null;
      throw e;
    }
  }

  /**
   * A new primary signing key from a new secret (returned once). The previous primary stays
   * active for the overlap window (`retires_at`): deliveries created meanwhile carry both signatures.
   * The caller holds the webhook row (creation, or the PATCH's lock), so the next version is its own.
   */
  async newSigningKey(orgId: string, webhookId: string, m?: Tx): Promise<string> {
    const secret = newSigningSecret();
    const now = this.clock.now();
    const version = await this.webhooks.nextSigningVersion(orgId, webhookId, m);
    await this.webhooks.retirePrimaryKey(orgId, webhookId, new Date(now.getTime() + SIGNING_KEY_OVERLAP_MS), m);
    await this.webhooks.insertSigningKey(
      orgId,
      webhookId,
      version,
      this.secrets.seal(signingKeyOf(secret), { kind: 'signing-key', orgId, webhookId, version }),
      now,
      m,
    );
    return secret;
  }

  private openOrConflict(stored: string, b: SecretBinding): string {
    try {
      return this.secrets.open(stored, b);
    } catch (e) {
      if (!(e instanceof UnreadableSecretError)) throw e;
      throw Errors.conflict(
        'The stored destination secrets cannot be read (sealed under another SERVICE_ENCRYPTION_KEY or altered); send url, auth and standard_webhooks again',
        'webhook_secrets_unreadable',
      );
    }
  }
}

type VersionField = 'url' | 'bearer' | 'standard';
