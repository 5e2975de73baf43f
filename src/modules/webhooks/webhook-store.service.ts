import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { Errors } from '../../common/errors/domain-error';
import { WebhookSecrets, newSigningSecret, signingKeyOf } from './webhook-secrets';
import { WEBHOOK_COLUMNS, WEBHOOK_FROM, type WebhookRow } from './webhooks.mapper';
import { SIGNING_KEY_OVERLAP_MS } from './webhooks.constants';

/** A destination version as stored (encrypted). Versions are immutable: a change writes a new one. */
export interface VersionRow {
  id: string;
  url_enc: string;
  auth_type: 'none' | 'bearer';
  bearer_enc: string | null;
  standard_secret_enc: string | null;
}

/** Reads and writes of webhook configuration shared by the command handlers. */
@Injectable()
export class WebhookStore {
  constructor(
    private readonly secrets: WebhookSecrets,
    private readonly clock: Clock,
  ) {}

  async get(m: EntityManager, orgId: string, id: string, lock = false): Promise<WebhookRow> {
    const rows: WebhookRow[] = await m.query(`SELECT ${WEBHOOK_COLUMNS} FROM ${WEBHOOK_FROM} WHERE w.org_id = $1 AND w.id = $2${lock ? ' FOR UPDATE OF w' : ''}`, [orgId, id]);
    if (!rows[0]) throw Errors.notFound('Webhook not found');
    return rows[0];
  }

  async version(m: EntityManager, orgId: string, versionId: string): Promise<VersionRow> {
    const [v] = await m.query('SELECT id, url_enc, auth_type, bearer_enc, standard_secret_enc FROM webhook_versions WHERE org_id = $1 AND id = $2', [orgId, versionId]);
    return v;
  }

  /** Writes a new destination version from plain values (`undefined` = copy the encrypted value of `from`). */
  async writeVersion(
    m: EntityManager,
    orgId: string,
    webhookId: string,
    v: { url?: string; bearer?: string | null; standard?: string | null },
    from?: VersionRow,
  ): Promise<string> {
    const id = randomUUID();
    const enc = (plain: string | null | undefined, old: string | null | undefined) => (plain === undefined ? (old ?? null) : plain === null ? null : this.secrets.encrypt(plain));
    const bearerEnc = enc(v.bearer, from?.bearer_enc);
    await m.query(
      `INSERT INTO webhook_versions (org_id, id, webhook_id, url_enc, auth_type, bearer_enc, standard_secret_enc, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [orgId, id, webhookId, enc(v.url, from?.url_enc), bearerEnc ? 'bearer' : 'none', bearerEnc, enc(v.standard, from?.standard_secret_enc), this.clock.now()],
    );
    return id;
  }

  /**
   * A new primary signing key from a new secret (returned once). The previous primary stays
   * active for the overlap window (`retires_at`): deliveries created meanwhile carry both signatures.
   */
  async newSigningKey(m: EntityManager, orgId: string, webhookId: string): Promise<string> {
    const secret = newSigningSecret();
    const now = this.clock.now();
    await m.query('UPDATE webhook_signing_keys SET retires_at = $3 WHERE org_id = $1 AND webhook_id = $2 AND retires_at IS NULL', [
      orgId,
      webhookId,
      new Date(now.getTime() + SIGNING_KEY_OVERLAP_MS),
    ]);
    await m.query(
      `INSERT INTO webhook_signing_keys (org_id, webhook_id, version, key_enc, created_at)
       SELECT $1, $2, COALESCE(max(version), 0) + 1, $3, $4 FROM webhook_signing_keys WHERE org_id = $1 AND webhook_id = $2`,
      [orgId, webhookId, this.secrets.encrypt(signingKeyOf(secret)), now],
    );
    return secret;
  }

  decrypt(enc: string): string {
    return this.secrets.decrypt(enc);
  }
}
