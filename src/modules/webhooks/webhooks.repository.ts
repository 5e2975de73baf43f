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
  /** The events it subscribes to. */
  events: string[];
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
  /** Subscribers of any of these events. */
  anyEvent?: string[];
  webhookId?: string;
  purposes?: string[];
  includeDisabled?: boolean;
}

/** A destination version with a value sealed without binding (see WebhookSecrets). */
export interface LegacyVersionRow extends VersionRow {
  org_id: string;
  webhook_id: string;
}
/** A signing key sealed without binding. */
export interface LegacySigningKeyRow {
  org_id: string;
  webhook_id: string;
  version: number;
  key_enc: string;
}
/** Key-order positions of the re-seal scans. */
export interface RowCursor {
  orgId: string;
  id: string;
}
export interface KeyCursor {
  orgId: string;
  webhookId: string;
  version: number;
}
/** The predicate of the partial index webhook_versions_legacy_sealed_idx (1765520000000). */
const LEGACY_VERSION = "(starts_with(url_enc, 'v1.') OR starts_with(bearer_enc, 'v1.') OR starts_with(standard_secret_enc, 'v1.'))";

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

  /** The version number the next signing key of webhook `webhookId` takes. */
  async nextSigningVersion(orgId: string, webhookId: string, m?: Tx): Promise<number> {
    return (await this.sql.row<{ v: number }>(
      'SELECT COALESCE(max(version), 0) + 1 AS v FROM webhook_signing_keys WHERE org_id = $1 AND webhook_id = $2',
      [orgId, webhookId],
      m,
    ))!.v;
  }

  /** Stores signing key `version` (sealed for that version) of webhook `webhookId`. */
  async insertSigningKey(orgId: string, webhookId: string, version: number, keyEnc: string, now: Date, m?: Tx): Promise<void> {
    await this.sql.run(
      'INSERT INTO webhook_signing_keys (org_id, webhook_id, version, key_enc, created_at) VALUES ($1, $2, $3, $4, $5)',
      [orgId, webhookId, version, keyEnc, now],
      m,
    );
  }

  /**
   * Serializes the creations of the organization's webhooks until the end of m's transaction (a
   * transaction-level advisory lock: the cap check then counts every committed webhook, and issue
   * writes, which lock the organization row, are not held up).
   */
  async lockCreation(orgId: string, m: Tx): Promise<void> {
    await this.sql.run("SELECT pg_advisory_xact_lock(hashtextextended('webhooks:create:' || $1::text, 0))", [orgId], m);
  }

  /** Destination versions holding a value sealed without binding (`v1.`), after `after` in key order (the maintenance re-seal). */
  legacySealedVersions(after: RowCursor, limit: number, m?: Tx): Promise<LegacyVersionRow[]> {
    return this.sql.rows<LegacyVersionRow>(
      `SELECT org_id, id, webhook_id, url_enc, bearer_enc, standard_secret_enc FROM webhook_versions
        WHERE ${LEGACY_VERSION} AND (org_id, id) > ($1::uuid, $2::uuid) ORDER BY org_id, id LIMIT $3`,
      [after.orgId, after.id, limit],
      m,
    );
  }

  /** Replaces the sealed values of version `v.id` when they are still `v`'s (compare and set); whether it did. */
  async resealVersion(v: LegacyVersionRow, next: { url_enc: string; bearer_enc: string | null; standard_secret_enc: string | null }, m?: Tx): Promise<boolean> {
    return (
      (await this.sql.run(
        `UPDATE webhook_versions SET url_enc = $6, bearer_enc = $7, standard_secret_enc = $8
          WHERE org_id = $1 AND id = $2 AND url_enc = $3 AND bearer_enc IS NOT DISTINCT FROM $4 AND standard_secret_enc IS NOT DISTINCT FROM $5`,
        [v.org_id, v.id, v.url_enc, v.bearer_enc, v.standard_secret_enc, next.url_enc, next.bearer_enc, next.standard_secret_enc],
        m,
      )) > 0
    );
  }

  /** Signing keys sealed without binding (`v1.`), after `after` in key order (the maintenance re-seal). */
  legacySealedSigningKeys(after: KeyCursor, limit: number, m?: Tx): Promise<LegacySigningKeyRow[]> {
    return this.sql.rows<LegacySigningKeyRow>(
      `SELECT org_id, webhook_id, version, key_enc FROM webhook_signing_keys
        WHERE starts_with(key_enc, 'v1.') AND (org_id, webhook_id, version) > ($1::uuid, $2::uuid, $3::int) ORDER BY org_id, webhook_id, version LIMIT $4`,
      [after.orgId, after.webhookId, after.version, limit],
      m,
    );
  }

  /** Replaces the sealed value of signing key `k` when it is still `k.key_enc` (compare and set); whether it did. */
  async resealSigningKey(k: LegacySigningKeyRow, keyEnc: string, m?: Tx): Promise<boolean> {
    return (
      (await this.sql.run(
        'UPDATE webhook_signing_keys SET key_enc = $5 WHERE org_id = $1 AND webhook_id = $2 AND version = $3 AND key_enc = $4',
        [k.org_id, k.webhook_id, k.version, k.key_enc, keyEnc],
        m,
      )) > 0
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
    if (f.anyEvent) where.push(`w.events && $${params.push(f.anyEvent)}::text[]`);
    if (f.webhookId) where.push(`w.id = $${params.push(f.webhookId)}`);
    if (f.purposes) where.push(`w.purpose = ANY ($${params.push(f.purposes)}::text[])`);
    return this.sql.rows<PinnedDestination>(
      `SELECT w.id, w.current_version_id AS version_id, w.events,
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
