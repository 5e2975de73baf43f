import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { AccessPolicyService } from '../../common/access/access-policy.service';
import type { Actor } from '../../common/auth/principal';
import { Errors } from '../../common/errors/domain-error';
import { SecretBox } from '../../common/crypto/secret-box';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { referencedSecrets, type SyncConfig } from './sync-config';
import { openSecret, type SealedSecret, SYNC_SECRETS_PURPOSE, sealSecret } from './sync-secrets';

export interface KpiRow {
  id: string;
  name: string;
  project_id: string | null;
  source_type: string;
}

/** A kpi_http_syncs row as read by SYNC_SELECT. */
export type SyncRow = Record<string, any> & {
  org_id: string;
  id: string;
  kpi_id: string;
  status: 'draft' | 'published' | 'disabled';
  schedule: 'manual' | 'hourly' | 'daily' | 'weekly';
  request_config: SyncConfig['request_config'];
  extraction_config: SyncConfig['extraction_config'];
  freshness_config: SyncConfig['freshness_config'];
  config_version: number;
  config_hash: string;
  created_by_member_id: string | null;
};

export interface SecretMeta {
  name: string;
  configured: boolean;
  referenced: boolean;
  updated_at: string | null;
}

export const SYNC_SELECT = 'SELECT s.* FROM kpi_http_syncs s';
export const RUN_SELECT = 'SELECT r.* FROM kpi_http_sync_runs r';

/** Database access shared by the KPI HTTP sync use cases (API and worker). */
@Injectable()
export class KpiSyncStore {
  constructor(
    readonly db: DataSource,
    private readonly access: AccessPolicyService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.secrets = new SecretBox(config.encryptionKey, SYNC_SECRETS_PURPOSE);
  }

  private readonly secrets: SecretBox;

  /** The KPI, readable by the caller (404 otherwise, concealed). */
  async readableKpi(actor: Actor, kpiId: string): Promise<KpiRow> {
    const rows: KpiRow[] = await this.db.query('SELECT id, name, project_id, source_type FROM kpis WHERE org_id = $1 AND id = $2', [actor.orgId, kpiId]);
    if (!rows[0]) throw Errors.notFound('KPI not found');
    await this.access.assertStrategyRead(actor, rows[0].project_id, 'KPI not found');
    return rows[0];
  }

  /** Readable KPI, human owner/admin caller (403), then the sync (404). */
  async forAdmin(actor: Actor, kpiId: string, syncId: string, m: EntityManager = this.db.manager, lock = false): Promise<{ kpi: KpiRow; sync: SyncRow }> {
    const kpi = await this.readableKpi(actor, kpiId);
    this.access.assertKpiSyncAdmin(actor);
    return { kpi, sync: await this.sync(m, actor.orgId, kpiId, syncId, lock) };
  }

  /** Readable KPI and a non-guest caller; `full` when the caller sees configuration of syncs it did not draft. */
  async forRead(actor: Actor, kpiId: string): Promise<{ kpi: KpiRow; level: 'full' | 'redacted' }> {
    const kpi = await this.readableKpi(actor, kpiId);
    return { kpi, level: await this.access.kpiSyncReadLevel(actor, false) };
  }

  /** What one sync shows this caller: `full` readers see everything; the member who drafted it sees its configuration too. */
  levelFor(actor: Actor, level: 'full' | 'redacted', s: SyncRow): 'full' | 'redacted' {
    return level === 'full' || s.created_by_member_id === actor.memberId ? 'full' : 'redacted';
  }

  /** The sync row as it is now. */
  async reload(m: EntityManager, orgId: string, syncId: string): Promise<SyncRow> {
    const rows: SyncRow[] = await m.query(`${SYNC_SELECT} WHERE s.org_id = $1 AND s.id = $2`, [orgId, syncId]);
    return rows[0];
  }

  async sync(m: EntityManager, orgId: string, kpiId: string, syncId: string, lock = false): Promise<SyncRow> {
    const rows: SyncRow[] = await m.query(`${SYNC_SELECT} WHERE s.org_id = $1 AND s.kpi_id = $2 AND s.id = $3${lock ? ' FOR UPDATE' : ''}`, [orgId, kpiId, syncId]);
    if (!rows[0]) throw Errors.notFound('KPI HTTP sync not found');
    return rows[0];
  }

  async allowlist(m: EntityManager, orgId: string): Promise<Set<string>> {
    const rows: Array<{ host: string }> = await m.query('SELECT host FROM kpi_http_sync_hosts WHERE org_id = $1', [orgId]);
    return new Set(rows.map((r) => r.host));
  }

  /** Secret metadata of syncs: stored names plus referenced names not yet set. Never values. */
  async secretMeta(m: EntityManager, orgId: string, syncs: SyncRow[]): Promise<Map<string, SecretMeta[]>> {
    const out = new Map<string, SecretMeta[]>();
    if (!syncs.length) return out;
    const rows: Array<{ sync_id: string; name: string; updated_at: Date }> = await m.query(
      'SELECT sync_id, name, updated_at FROM kpi_http_sync_secrets WHERE org_id = $1 AND sync_id = ANY($2::uuid[]) ORDER BY name',
      [orgId, syncs.map((s) => s.id)],
    );
    for (const s of syncs) {
      const refs = new Set(referencedSecrets(s));
      const stored = rows.filter((r) => r.sync_id === s.id);
      const list: SecretMeta[] = stored.map((r) => ({ name: r.name, configured: true, referenced: refs.has(r.name), updated_at: new Date(r.updated_at).toISOString() }));
      for (const ref of refs) if (!stored.some((r) => r.name === ref)) list.push({ name: ref, configured: false, referenced: true, updated_at: null });
      out.set(s.id, list.sort((a, b) => a.name.localeCompare(b.name)));
    }
    return out;
  }

  async putSecret(m: EntityManager, actor: Actor, syncId: string, name: string, value: string | null, now: Date): Promise<void> {
    if (value === null) {
      await m.query('DELETE FROM kpi_http_sync_secrets WHERE org_id = $1 AND sync_id = $2 AND name = $3', [actor.orgId, syncId, name]);
    } else {
      const sealed = sealSecret(this.secrets, actor.orgId, syncId, name, value);
      await m.query(
        `INSERT INTO kpi_http_sync_secrets (org_id, sync_id, name, nonce, ciphertext, auth_tag, key_id, updated_by_member_id, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)
         ON CONFLICT (org_id, sync_id, name) DO UPDATE SET nonce = EXCLUDED.nonce, ciphertext = EXCLUDED.ciphertext, auth_tag = EXCLUDED.auth_tag,
           key_id = EXCLUDED.key_id, updated_by_member_id = EXCLUDED.updated_by_member_id, updated_at = EXCLUDED.updated_at`,
        [actor.orgId, syncId, name, sealed.nonce, sealed.ciphertext, sealed.authTag, sealed.keyId, actor.memberId, now],
      );
    }
    await m.query('UPDATE kpi_http_syncs SET secrets_updated_at = $3, updated_at = $3 WHERE org_id = $1 AND id = $2', [actor.orgId, syncId, now]);
  }

  /**
   * Plaintext values of the named secrets, in memory only. A name that is not set, or whose row
   * does not open under the current key, is in `missing`.
   */
  async openSecrets(orgId: string, syncId: string, names: string[]): Promise<{ values: Map<string, string>; missing: string[] }> {
    const values = new Map<string, string>();
    if (!names.length) return { values, missing: [] };
    const rows: Array<{ name: string; nonce: Buffer; ciphertext: Buffer; auth_tag: Buffer; key_id: string }> = await this.db.query(
      'SELECT name, nonce, ciphertext, auth_tag, key_id FROM kpi_http_sync_secrets WHERE org_id = $1 AND sync_id = $2 AND name = ANY($3::text[])',
      [orgId, syncId, names],
    );
    for (const r of rows) {
      const sealed: SealedSecret = { nonce: r.nonce, ciphertext: r.ciphertext, authTag: r.auth_tag, keyId: r.key_id };
      const v = openSecret(this.secrets, orgId, syncId, r.name, sealed);
      if (v !== null) values.set(r.name, v);
    }
    return { values, missing: names.filter((n) => !values.has(n)) };
  }

  async run(m: EntityManager, orgId: string, runId: string): Promise<Record<string, any> | undefined> {
    const rows = await m.query(`${RUN_SELECT} WHERE r.org_id = $1 AND r.id = $2`, [orgId, runId]);
    return rows[0];
  }
}
