import { Injectable } from '@nestjs/common';
import { Sql, type Tx } from '../../database/sql.service';
import { WEBHOOK_COLUMNS, WEBHOOK_FROM, type WebhookRow } from './webhooks.mapper';

/** A destination version as stored (encrypted). Versions are immutable: a change writes a new one. */
export interface VersionRow {
  id: string;
  url_enc: string;
  auth_type: 'none' | 'bearer';
  bearer_enc: string | null;
  standard_secret_enc: string | null;
}

/** A destination as a new delivery pins it: current destination version and signing versions (primary first). */
export interface PinnedDestination {
  id: string;
  version_id: string;
  signing_versions: number[];
}

/** Per-destination delivery health. */
export interface WebhookHealth {
  webhookId: string;
  destinationDisplay: string;
  enabled: boolean;
  /** Failed attempts since the last successful one (reset by a success). */
  consecutiveFailures: number;
  lastFailureAt: Date | null;
  lastSuccessAt: Date | null;
}

/** A new destination (its first version already written). */
export interface NewWebhook {
  id: string;
  destinationDisplay: string;
  events: string[];
  enabled: boolean;
  purpose: string;
  versionId: string;
  createdByMemberId: string;
  now: Date;
}

/** A new destination version (encrypted values). */
export interface NewVersion {
  id: string;
  webhookId: string;
  urlEnc: string | null;
  authType: 'none' | 'bearer';
  bearerEnc: string | null;
  standardSecretEnc: string | null;
  createdAt: Date;
}

/** What a PATCH writes (null = keep events/enabled/purpose). */
export interface WebhookChanges {
  events: string[] | null;
  enabled: boolean | null;
  purpose: string | null;
  destinationDisplay: string;
  versionId: string;
  updatedAt: Date;
}

/** Filter of the destinations a new delivery pins. */
export interface DestinationFilter {
  event?: string;
  webhookId?: string;
  purposes?: string[];
  includeDisabled?: boolean;
}

/** Webhook destinations with their immutable versions and signing keys. */
@Injectable()
export class WebhooksRepository {
  constructor(private readonly sql: Sql) {}

  /** Webhook `id` with its current version's auth flags, optionally locked (FOR UPDATE OF w), or undefined. */
  find(orgId: string, id: string, lock: boolean, m?: Tx): Promise<WebhookRow | undefined> {
    return this.sql.row<WebhookRow>(
      `SELECT ${WEBHOOK_COLUMNS} FROM ${WEBHOOK_FROM} WHERE w.org_id = $1 AND w.id = $2${lock ? ' FOR UPDATE OF w' : ''}`,
      [orgId, id],
      m,
    );
  }

  /** Whether webhook `id` exists in the organization. */
  async exists(orgId: string, id: string, m?: Tx): Promise<boolean> {
    return (await this.sql.rows('SELECT 1 FROM webhooks WHERE org_id = $1 AND id = $2', [orgId, id], m)).length > 0;
  }

  /** One page of the organization's webhooks, oldest first, each with the total count. */
  page(orgId: string, limit: number, offset: number, m?: Tx): Promise<Array<WebhookRow & { total: string }>> {
    return this.sql.rows<WebhookRow & { total: string }>(
      `SELECT ${WEBHOOK_COLUMNS}, count(*) OVER () AS total FROM ${WEBHOOK_FROM} WHERE w.org_id = $1 ORDER BY w.created_at, w.id LIMIT $2 OFFSET $3`,
      [orgId, limit, offset],
      m,
    );
  }

  /** Number of the organization's webhooks. */
  async count(orgId: string, m?: Tx): Promise<number> {
    return (await this.sql.row<{ n: number }>('SELECT count(*)::int AS n FROM webhooks WHERE org_id = $1', [orgId], m))!.n;
  }

  /** Stores a new destination. */
  async insert(orgId: string, w: NewWebhook, m?: Tx): Promise<void> {
    await this.sql.run(
      `INSERT INTO webhooks (org_id, id, destination_display, events, enabled, purpose, current_version_id, created_by_member_id, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)`,
      [orgId, w.id, w.destinationDisplay, w.events, w.enabled, w.purpose, w.versionId, w.createdByMemberId, w.now],
      m,
    );
  }

  /** Writes a PATCH of webhook `id`. */
  async update(orgId: string, id: string, c: WebhookChanges, m?: Tx): Promise<void> {
    await this.sql.run(
      `UPDATE webhooks SET events = COALESCE($3, events), enabled = COALESCE($4, enabled), purpose = COALESCE($5, purpose),
                destination_display = $6, current_version_id = $7, updated_at = $8
          WHERE org_id = $1 AND id = $2`,
      [orgId, id, c.events, c.enabled, c.purpose, c.destinationDisplay, c.versionId, c.updatedAt],
      m,
    );
  }

  /** Deletes webhook `id` (versions, keys and deliveries cascade); whether it existed. */
  async delete(orgId: string, id: string, m?: Tx): Promise<boolean> {
    return (await this.sql.rows('DELETE FROM webhooks WHERE org_id = $1 AND id = $2 RETURNING id', [orgId, id], m)).length > 0;
  }

  /** Destination version `versionId`, or undefined. */
  findVersion(orgId: string, versionId: string, m?: Tx): Promise<VersionRow | undefined> {
    return this.sql.row<VersionRow>(
      'SELECT id, url_enc, auth_type, bearer_enc, standard_secret_enc FROM webhook_versions WHERE org_id = $1 AND id = $2',
      [orgId, versionId],
      m,
    );
  }

  /** Stores a new destination version. */
  async insertVersion(orgId: string, v: NewVersion, m?: Tx): Promise<void> {
    await this.sql.run(
      `INSERT INTO webhook_versions (org_id, id, webhook_id, url_enc, auth_type, bearer_enc, standard_secret_enc, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [orgId, v.id, v.webhookId, v.urlEnc, v.authType, v.bearerEnc, v.standardSecretEnc, v.createdAt],
      m,
    );
  }

  /** Gives the active primary signing key of webhook `webhookId` a retirement time. */
  async retirePrimaryKey(orgId: string, webhookId: string, retiresAt: Date, m?: Tx): Promise<void> {
    await this.sql.run(
      'UPDATE webhook_signing_keys SET retires_at = $3 WHERE org_id = $1 AND webhook_id = $2 AND retires_at IS NULL',
      [orgId, webhookId, retiresAt],
      m,
    );
  }

  /** Stores a new signing key (encrypted) as the next version of webhook `webhookId`. */
  async insertSigningKey(orgId: string, webhookId: string, keyEnc: string, now: Date, m?: Tx): Promise<void> {
    await this.sql.run(
      `INSERT INTO webhook_signing_keys (org_id, webhook_id, version, key_enc, created_at)
       SELECT $1, $2, COALESCE(max(version), 0) + 1, $3, $4 FROM webhook_signing_keys WHERE org_id = $1 AND webhook_id = $2`,
      [orgId, webhookId, keyEnc, now],
      m,
    );
  }

  /**
   * Destinations of an organization with what a new delivery pins (signing keys active at `now`):
   * enabled subscribers of `event`, or one webhook (`webhookId`, any events; `purposes` narrows it;
   * `includeDisabled` for ping/redelivery).
   */
  destinations(orgId: string, now: Date, f: DestinationFilter, m?: Tx): Promise<PinnedDestination[]> {
    const params: unknown[] = [orgId, now];
    const where: string[] = ['w.org_id = $1'];
    if (!f.includeDisabled) where.push('w.enabled');
    if (f.event) where.push(`$${params.push(f.event)} = ANY (w.events)`);
    if (f.webhookId) where.push(`w.id = $${params.push(f.webhookId)}`);
    if (f.purposes) where.push(`w.purpose = ANY ($${params.push(f.purposes)}::text[])`);
    return this.sql.rows<PinnedDestination>(
      `SELECT w.id, w.current_version_id AS version_id,
              (SELECT array_agg(k.version ORDER BY (k.retires_at IS NULL) DESC, k.version DESC) FROM webhook_signing_keys k
                WHERE k.org_id = w.org_id AND k.webhook_id = w.id AND (k.retires_at IS NULL OR k.retires_at > $2)) AS signing_versions
         FROM webhooks w WHERE ${where.join(' AND ')}
        ORDER BY w.created_at, w.id`,
      params,
      m,
    );
  }

  /**
   * Destinations of an organization with at least `minFailures` consecutive failed attempts, worst
   * first (the heartbeat `webhook_failing` signal).
   */
  async failing(orgId: string, minFailures = 1, m?: Tx): Promise<WebhookHealth[]> {
    const rows = await this.sql.rows<{
      id: string;
      destination_display: string;
      enabled: boolean;
      consecutive_failures: number;
      last_failure_at: Date | null;
      last_success_at: Date | null;
    }>(
      `SELECT id, destination_display, enabled, consecutive_failures, last_failure_at, last_success_at FROM webhooks
          WHERE org_id = $1 AND consecutive_failures >= $2 ORDER BY consecutive_failures DESC, last_failure_at DESC NULLS LAST, id LIMIT 100`,
      [orgId, Math.max(1, minFailures)],
      m,
    );
    return rows.map((r) => ({
      webhookId: r.id,
      destinationDisplay: r.destination_display,
      enabled: r.enabled,
      consecutiveFailures: r.consecutive_failures,
      lastFailureAt: r.last_failure_at,
      lastSuccessAt: r.last_success_at,
    }));
  }
}
