import { Injectable } from '@nestjs/common';
import { Sql, type Tx } from '../../database/sql.service';
import type { SyncConfig } from './sync-config';

/** The KPI fields a sync route needs (read from the strategy module's table). */
export interface KpiRow {
  id: string;
  name: string;
  project_id: string | null;
  source_type: string;
}

/** A kpi_http_syncs row (every column). */
export interface SyncRow {
  org_id: string;
  id: string;
  kpi_id: string;
  name: string;
  status: 'draft' | 'published' | 'disabled';
  schedule: 'manual' | 'hourly' | 'daily' | 'weekly';
  request_config: SyncConfig['request_config'];
  extraction_config: SyncConfig['extraction_config'];
  freshness_config: SyncConfig['freshness_config'];
  config_version: number;
  config_hash: string;
  validated_config_hash: string | null;
  validated_at: Date | null;
  dry_run_config_hash: string | null;
  dry_run_at: Date | null;
  secrets_updated_at: Date | null;
  published_at: Date | null;
  published_by_member_id: string | null;
  disabled_at: Date | null;
  last_scheduled_slot: string | null;
  last_run_at: Date | null;
  last_run_status: 'queued' | 'running' | 'success' | 'error' | null;
  created_by_member_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A host of the organization's allowlist. */
export interface SyncHostRow {
  host: string;
  created_by_member_id: string | null;
  created_at: Date;
}

/** Metadata of a stored secret (never its value). */
export interface SecretMetaRow {
  sync_id: string;
  name: string;
  updated_at: Date;
}

/** A stored secret, sealed. */
export interface SealedSecretRow {
  name: string;
  nonce: Buffer;
  ciphertext: Buffer;
  auth_tag: Buffer;
  key_id: string;
}

/** A new draft sync (configuration already validated and hashed). */
export interface NewSync {
  id: string;
  kpiId: string;
  name: string;
  schedule: string;
  config: SyncConfig;
  configHash: string;
  createdByMemberId: string;
}

/** A sealed secret value to store. */
export interface NewSealedSecret {
  nonce: Buffer;
  ciphertext: Buffer;
  authTag: Buffer;
  keyId: string;
}

const SYNC_SELECT = 'SELECT s.* FROM kpi_http_syncs s';
const POLICY_SELECT = 'SELECT host, created_by_member_id, created_at FROM kpi_http_sync_hosts WHERE org_id = $1 ORDER BY host';

/** KPI HTTP syncs with their allowlist hosts and sealed secrets. */
@Injectable()
export class KpiSyncsRepository {
  constructor(private readonly sql: Sql) {}

  /** Id, name, project and source type of KPI `kpiId`, or undefined (a look-up of the strategy module's KPI). */
  findKpi(orgId: string, kpiId: string, m?: Tx): Promise<KpiRow | undefined> {
    return this.sql.row<KpiRow>('SELECT id, name, project_id, source_type FROM kpis WHERE org_id = $1 AND id = $2', [orgId, kpiId], m);
  }

  /** Locks the organization row for the rest of transaction `m` (serializes allowlist changes). */
  async lockOrganization(orgId: string, m: Tx): Promise<void> {
    await this.sql.run('SELECT 1 FROM organizations WHERE id = $1 FOR UPDATE', [orgId], m);
  }

  /** Sync `syncId` of the organization as it is now, or undefined. */
  find(orgId: string, syncId: string, m?: Tx): Promise<SyncRow | undefined> {
    return this.sql.row<SyncRow>(`${SYNC_SELECT} WHERE s.org_id = $1 AND s.id = $2`, [orgId, syncId], m);
  }

  /** Sync `syncId` of KPI `kpiId`, optionally locked (FOR UPDATE), or undefined. */
  findOfKpi(orgId: string, kpiId: string, syncId: string, lock: boolean, m?: Tx): Promise<SyncRow | undefined> {
    return this.sql.row<SyncRow>(`${SYNC_SELECT} WHERE s.org_id = $1 AND s.kpi_id = $2 AND s.id = $3${lock ? ' FOR UPDATE' : ''}`, [orgId, kpiId, syncId], m);
  }

  /** Number of syncs of KPI `kpiId`. */
  async countOfKpi(orgId: string, kpiId: string, m?: Tx): Promise<number> {
    return (await this.sql.row<{ n: number }>('SELECT count(*)::int AS n FROM kpi_http_syncs WHERE org_id = $1 AND kpi_id = $2', [orgId, kpiId], m))!.n;
  }

  /** One page of the syncs of KPI `kpiId`, oldest first. */
  pageOfKpi(orgId: string, kpiId: string, limit: number, offset: number, m?: Tx): Promise<SyncRow[]> {
    return this.sql.rows<SyncRow>(
      'SELECT s.* FROM kpi_http_syncs s WHERE s.org_id = $1 AND s.kpi_id = $2 ORDER BY s.created_at, s.id LIMIT $3 OFFSET $4',
      [orgId, kpiId, limit, offset],
      m,
    );
  }

  /** One page of the organization's syncs, oldest first, with their KPI's name and the total count. */
  pageOfOrg(orgId: string, limit: number, offset: number, m?: Tx): Promise<Array<SyncRow & { kpi_name: string; total: number }>> {
    return this.sql.rows<SyncRow & { kpi_name: string; total: number }>(
      `SELECT s.*, k.name AS kpi_name, count(*) OVER ()::int AS total FROM kpi_http_syncs s JOIN kpis k ON k.org_id = s.org_id AND k.id = s.kpi_id
        WHERE s.org_id = $1 ORDER BY s.created_at, s.id LIMIT $2 OFFSET $3`,
      [orgId, limit, offset],
      m,
    );
  }

  /** Number of the organization's syncs. */
  async countOfOrg(orgId: string, m?: Tx): Promise<number> {
    return (await this.sql.row<{ n: number }>('SELECT count(*)::int AS n FROM kpi_http_syncs WHERE org_id = $1', [orgId], m))!.n;
  }

  /** Stores a new draft sync (config version 1). */
  async insert(orgId: string, s: NewSync, m?: Tx): Promise<void> {
    await this.sql.run(
      `INSERT INTO kpi_http_syncs (org_id, id, kpi_id, name, status, schedule, request_config, extraction_config, freshness_config, config_version, config_hash, created_by_member_id, created_at, updated_at)
         VALUES ($1, $2, $3, $4, 'draft', $5, $6, $7, $8, 1, $9, $10, now(), now())`,
      [
        orgId,
        s.id,
        s.kpiId,
        s.name,
        s.schedule,
        s.config.request_config,
        s.config.extraction_config,
        s.config.freshness_config,
        s.configHash,
        s.createdByMemberId,
      ],
      m,
    );
  }

  /**
   * Writes `updated_at = now()`, the given columns and the extra SET fragments (fixed texts) of sync `syncId`.
   * Column names come from the caller's fixed set (name, schedule, the configuration, config_hash).
   */
  async update(orgId: string, syncId: string, columns: ReadonlyArray<readonly [string, unknown]>, fragments: readonly string[], m?: Tx): Promise<void> {
    const sets: string[] = ['updated_at = now()'];
    const args: unknown[] = [orgId, syncId];
    for (const [col, v] of columns) {
      args.push(v);
      sets.push(`${col} = $${args.length}`);
    }
    sets.push(...fragments);
    await this.sql.run(`UPDATE kpi_http_syncs SET ${sets.join(', ')} WHERE org_id = $1 AND id = $2`, args, m);
  }

  /** Clears the validated hash of sync `syncId` (its configuration failed validation). */
  async clearValidated(orgId: string, syncId: string, m?: Tx): Promise<void> {
    await this.sql.run('UPDATE kpi_http_syncs SET validated_config_hash = NULL, validated_at = NULL WHERE org_id = $1 AND id = $2', [orgId, syncId], m);
  }

  /** Records the current configuration hash of sync `syncId` as validated now. */
  async markValidated(orgId: string, syncId: string, m?: Tx): Promise<void> {
    await this.sql.run('UPDATE kpi_http_syncs SET validated_config_hash = config_hash, validated_at = now() WHERE org_id = $1 AND id = $2', [orgId, syncId], m);
  }

  /** Records a successful dry run of configuration `configHash`, if it is still the sync's configuration. */
  async markDryRun(orgId: string, syncId: string, configHash: string, at: Date, m?: Tx): Promise<void> {
    await this.sql.run(
      'UPDATE kpi_http_syncs SET dry_run_config_hash = $3, dry_run_at = $4 WHERE org_id = $1 AND id = $2 AND config_hash = $3',
      [orgId, syncId, configHash, at],
      m,
    );
  }

  /** Publishes sync `syncId` now, by member `memberId`. */
  async publish(orgId: string, syncId: string, memberId: string, m?: Tx): Promise<void> {
    await this.sql.run(
      `UPDATE kpi_http_syncs SET status = 'published', published_at = now(), published_by_member_id = $3, disabled_at = NULL, updated_at = now()
           WHERE org_id = $1 AND id = $2`,
      [orgId, syncId, memberId],
      m,
    );
  }

  /** Disables sync `syncId` unless it already is. */
  async disable(orgId: string, syncId: string, m?: Tx): Promise<void> {
    await this.sql.run(
      `UPDATE kpi_http_syncs SET status = 'disabled', disabled_at = now(), updated_at = now() WHERE org_id = $1 AND id = $2 AND status <> 'disabled'`,
      [orgId, syncId],
      m,
    );
  }

  /** Status and configuration hash of sync `syncId`, locked (FOR UPDATE) for the rest of transaction `m`, or undefined. */
  lockState(orgId: string, syncId: string, m: Tx): Promise<{ status: string; config_hash: string } | undefined> {
    return this.sql.row<{ status: string; config_hash: string }>(
      'SELECT status, config_hash FROM kpi_http_syncs WHERE org_id = $1 AND id = $2 FOR UPDATE',
      [orgId, syncId],
      m,
    );
  }

  /** Records the time and status of the last run of sync `syncId`. */
  async setLastRun(orgId: string, syncId: string, at: Date, status: string, m?: Tx): Promise<void> {
    await this.sql.run('UPDATE kpi_http_syncs SET last_run_at = $3, last_run_status = $4 WHERE org_id = $1 AND id = $2', [orgId, syncId, at, status], m);
  }

  /**
   * Published syncs of `schedule` whose last claimed slot is before `slot` (optionally of one
   * organization), oldest slot first, locked FOR UPDATE SKIP LOCKED for the rest of transaction `m`.
   */
  lockDue(schedule: string, slot: string, limit: number, orgId: string | null, m: Tx): Promise<SyncRow[]> {
    return this.sql.rows<SyncRow>(
      `SELECT s.* FROM kpi_http_syncs s
          WHERE s.status = 'published' AND s.schedule = $1 AND (s.last_scheduled_slot IS NULL OR s.last_scheduled_slot < $2)
            AND ($4::uuid IS NULL OR s.org_id = $4)
          ORDER BY s.last_scheduled_slot ASC NULLS FIRST, s.id
          LIMIT $3
          FOR UPDATE OF s SKIP LOCKED`,
      [schedule, slot, limit, orgId],
      m,
    );
  }

  /** Records `slot` as the last scheduled slot claimed for sync `syncId`. */
  async setScheduledSlot(orgId: string, syncId: string, slot: string, m?: Tx): Promise<void> {
    await this.sql.run('UPDATE kpi_http_syncs SET last_scheduled_slot = $3 WHERE org_id = $1 AND id = $2', [orgId, syncId, slot], m);
  }

  /** The organization's allowlisted hosts. */
  async hosts(orgId: string, m?: Tx): Promise<string[]> {
    return (await this.sql.rows<{ host: string }>('SELECT host FROM kpi_http_sync_hosts WHERE org_id = $1', [orgId], m)).map((r) => r.host);
  }

  /** The organization's allowlist, by host. */
  policy(orgId: string, m?: Tx): Promise<SyncHostRow[]> {
    return this.sql.rows<SyncHostRow>(POLICY_SELECT, [orgId], m);
  }

  /** Number of the organization's allowlisted hosts. */
  async countHosts(orgId: string, m?: Tx): Promise<number> {
    return (await this.sql.row<{ n: number }>('SELECT count(*)::int AS n FROM kpi_http_sync_hosts WHERE org_id = $1', [orgId], m))!.n;
  }

  /** Adds `host` to the allowlist; undefined when it is already there. */
  insertHost(orgId: string, id: string, host: string, memberId: string, m?: Tx): Promise<SyncHostRow | undefined> {
    return this.sql.row<SyncHostRow>(
      `INSERT INTO kpi_http_sync_hosts (org_id, id, host, created_by_member_id, created_at) VALUES ($1, $2, $3, $4, now())
         ON CONFLICT (org_id, host) DO NOTHING RETURNING host, created_by_member_id, created_at`,
      [orgId, id, host, memberId],
      m,
    );
  }

  /** Removes `host` from the allowlist; whether it was there. */
  async deleteHost(orgId: string, host: string, m?: Tx): Promise<boolean> {
    return (await this.sql.rows('DELETE FROM kpi_http_sync_hosts WHERE org_id = $1 AND host = $2 RETURNING host', [orgId, host], m)).length > 0;
  }

  /** Names and update times of the stored secrets of the given syncs, by name. */
  secretMeta(orgId: string, syncIds: string[], m?: Tx): Promise<SecretMetaRow[]> {
    return this.sql.rows<SecretMetaRow>(
      'SELECT sync_id, name, updated_at FROM kpi_http_sync_secrets WHERE org_id = $1 AND sync_id = ANY($2::uuid[]) ORDER BY name',
      [orgId, syncIds],
      m,
    );
  }

  /** Number of secrets of sync `syncId` other than `name`. */
  async countOtherSecrets(orgId: string, syncId: string, name: string, m?: Tx): Promise<number> {
    return (await this.sql.row<{ n: number }>(
      'SELECT count(*)::int AS n FROM kpi_http_sync_secrets WHERE org_id = $1 AND sync_id = $2 AND name <> $3',
      [orgId, syncId, name],
      m,
    ))!.n;
  }

  /** Removes secret `name` of sync `syncId`. */
  async deleteSecret(orgId: string, syncId: string, name: string, m?: Tx): Promise<void> {
    await this.sql.run('DELETE FROM kpi_http_sync_secrets WHERE org_id = $1 AND sync_id = $2 AND name = $3', [orgId, syncId, name], m);
  }

  /** Stores (or replaces) the sealed value of secret `name` of sync `syncId`. */
  async upsertSecret(orgId: string, syncId: string, name: string, sealed: NewSealedSecret, memberId: string, now: Date, m?: Tx): Promise<void> {
    await this.sql.run(
      `INSERT INTO kpi_http_sync_secrets (org_id, sync_id, name, nonce, ciphertext, auth_tag, key_id, updated_by_member_id, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)
         ON CONFLICT (org_id, sync_id, name) DO UPDATE SET nonce = EXCLUDED.nonce, ciphertext = EXCLUDED.ciphertext, auth_tag = EXCLUDED.auth_tag,
           key_id = EXCLUDED.key_id, updated_by_member_id = EXCLUDED.updated_by_member_id, updated_at = EXCLUDED.updated_at`,
      [orgId, syncId, name, sealed.nonce, sealed.ciphertext, sealed.authTag, sealed.keyId, memberId, now],
      m,
    );
  }

  /** Records that the secrets of sync `syncId` changed at `now`. */
  async touchSecrets(orgId: string, syncId: string, now: Date, m?: Tx): Promise<void> {
    await this.sql.run('UPDATE kpi_http_syncs SET secrets_updated_at = $3, updated_at = $3 WHERE org_id = $1 AND id = $2', [orgId, syncId, now], m);
  }

  /** The sealed values of the named secrets of sync `syncId` that are stored. */
  sealedSecrets(orgId: string, syncId: string, names: string[], m?: Tx): Promise<SealedSecretRow[]> {
    return this.sql.rows<SealedSecretRow>(
      'SELECT name, nonce, ciphertext, auth_tag, key_id FROM kpi_http_sync_secrets WHERE org_id = $1 AND sync_id = $2 AND name = ANY($3::text[])',
      [orgId, syncId, names],
      m,
    );
  }
}
