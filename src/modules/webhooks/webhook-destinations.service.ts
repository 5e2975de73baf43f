import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { Errors } from '../../common/errors/domain-error';
import type { Tx } from '../../database/sql.service';
import { WebhookSecrets, newSigningSecret, signingKeyOf } from './webhook-secrets';
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

  /** Writes a new destination version from plain values (`undefined` = copy the encrypted value of `from`). */
  async writeVersion(
    orgId: string,
    webhookId: string,
    v: { url?: string; bearer?: string | null; standard?: string | null },
    from?: VersionRow,
    m?: Tx,
  ): Promise<string> {
    const id = randomUUID();
    const enc = (plain: string | null | undefined, old: string | null | undefined) =>
      plain === undefined ? (old ?? null) : plain === null ? null : this.secrets.encrypt(plain);
    const bearerEnc = enc(v.bearer, from?.bearer_enc);
    await this.webhooks.insertVersion(
      orgId,
      {
        id,
        webhookId,
        urlEnc: enc(v.url, from?.url_enc),
        authType: bearerEnc ? 'bearer' : 'none',
        bearerEnc,
        standardSecretEnc: enc(v.standard, from?.standard_secret_enc),
        createdAt: this.clock.now(),
      },
      m,
    );
    return id;
  }

  /**
   * A new primary signing key from a new secret (returned once). The previous primary stays
   * active for the overlap window (`retires_at`): deliveries created meanwhile carry both signatures.
   */
  async newSigningKey(orgId: string, webhookId: string, m?: Tx): Promise<string> {
    const secret = newSigningSecret();
    const now = this.clock.now();
    await this.webhooks.retirePrimaryKey(orgId, webhookId, new Date(now.getTime() + SIGNING_KEY_OVERLAP_MS), m);
    await this.webhooks.insertSigningKey(orgId, webhookId, this.secrets.encrypt(signingKeyOf(secret)), now, m);
    return secret;
  }

  decrypt(enc: string): string {
    return this.secrets.decrypt(enc);
  }
}
