import { Inject, Injectable } from '@nestjs/common';
import { AccessPolicyService } from '../../common/access/access-policy.service';
import type { Actor } from '../../common/auth/principal';
import { Errors } from '../../common/errors/domain-error';
import { SecretBox } from '../../common/crypto/secret-box';
import type { Tx } from '../../database/sql.service';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { type KpiRow, KpiSyncsRepository, type SyncRow } from './kpi-syncs.repository';
import { referencedSecrets } from './sync-config';
import { openSecret, type SealedSecret, SYNC_SECRETS_PURPOSE, sealSecret } from './sync-secrets';

export interface SecretMeta {
  name: string;
  configured: boolean;
  referenced: boolean;
  updated_at: string | null;
}

/**
 * What the KPI HTTP sync use cases (API and worker) share: who may reach a sync (KPI readable,
 * admin or reader level), the sync or a 404, and the secrets sealed and opened in memory.
 */
@Injectable()
export class KpiSyncScope {
  constructor(
    private readonly syncs: KpiSyncsRepository,
    private readonly access: AccessPolicyService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.secrets = new SecretBox(config.encryptionKey, SYNC_SECRETS_PURPOSE);
  }

  private readonly secrets: SecretBox;

  /** The KPI, readable by the caller (404 otherwise, concealed). */
  async readableKpi(actor: Actor, kpiId: string): Promise<KpiRow> {
    const kpi = await this.syncs.findKpi(actor.orgId, kpiId);
    if (!kpi) throw Errors.notFound('KPI not found');
    await this.access.assertStrategyRead(actor, kpi.project_id, 'KPI not found');
    return kpi;
  }

  /** Readable KPI, human owner/admin caller (403), then the sync (404). */
  async forAdmin(actor: Actor, kpiId: string, syncId: string, m?: Tx, lock = false): Promise<{ kpi: KpiRow; sync: SyncRow }> {
    const kpi = await this.readableKpi(actor, kpiId);
    this.access.assertKpiSyncAdmin(actor);
    return { kpi, sync: await this.sync(actor.orgId, kpiId, syncId, lock, m) };
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
  async reload(orgId: string, syncId: string, m?: Tx): Promise<SyncRow> {
    return (await this.syncs.find(orgId, syncId, m))!;
  }

  /** Sync `syncId` of KPI `kpiId` (optionally locked), or 404. */
  async sync(orgId: string, kpiId: string, syncId: string, lock = false, m?: Tx): Promise<SyncRow> {
    const s = await this.syncs.findOfKpi(orgId, kpiId, syncId, lock, m);
    if (!s) throw Errors.notFound('KPI HTTP sync not found');
    return s;
  }

  /** The organization's allowlist as a set of hosts. */
  async allowlist(orgId: string, m?: Tx): Promise<Set<string>> {
    return new Set(await this.syncs.hosts(orgId, m));
  }

  /** Secret metadata of syncs: stored names plus referenced names not yet set. Never values. */
  async secretMeta(orgId: string, syncs: SyncRow[], m?: Tx): Promise<Map<string, SecretMeta[]>> {
    const out = new Map<string, SecretMeta[]>();
    if (!syncs.length) return out;
    const rows = await this.syncs.secretMeta(
      orgId,
      syncs.map((s) => s.id),
      m,
    );
    for (const s of syncs) {
      const refs = new Set(referencedSecrets(s));
      const stored = rows.filter((r) => r.sync_id === s.id);
      const list: SecretMeta[] = stored.map((r) => ({
        name: r.name,
        configured: true,
        referenced: refs.has(r.name),
        updated_at: new Date(r.updated_at).toISOString(),
      }));
      for (const ref of refs) if (!stored.some((r) => r.name === ref)) list.push({ name: ref, configured: false, referenced: true, updated_at: null });
      out.set(
        s.id,
        list.sort((a, b) => a.name.localeCompare(b.name)),
      );
    }
    return out;
  }

  /** Seals and stores (or with `null` removes) one secret value, and records the change time. */
  async putSecret(actor: Actor, syncId: string, name: string, value: string | null, now: Date, m?: Tx): Promise<void> {
    if (value === null) {
      await this.syncs.deleteSecret(actor.orgId, syncId, name, m);
    } else {
      await this.syncs.upsertSecret(actor.orgId, syncId, name, sealSecret(this.secrets, actor.orgId, syncId, name, value), actor.memberId, now, m);
    }
    await this.syncs.touchSecrets(actor.orgId, syncId, now, m);
  }

  /**
   * Plaintext values of the named secrets, in memory only. A name that is not set, or whose row
   * does not open under the current key, is in `missing`.
   */
  async openSecrets(orgId: string, syncId: string, names: string[]): Promise<{ values: Map<string, string>; missing: string[] }> {
    const values = new Map<string, string>();
    if (!names.length) return { values, missing: [] };
    const rows = await this.syncs.sealedSecrets(orgId, syncId, names);
    for (const r of rows) {
      const sealed: SealedSecret = { nonce: r.nonce, ciphertext: r.ciphertext, authTag: r.auth_tag, keyId: r.key_id };
      const v = openSecret(this.secrets, orgId, syncId, r.name, sealed);
      if (v !== null) values.set(r.name, v);
    }
    return { values, missing: names.filter((n) => !values.has(n)) };
  }
}
