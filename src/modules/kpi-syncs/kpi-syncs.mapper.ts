import type { SecretMeta } from './kpi-sync-scope.service';
import type { SyncRunRow } from './kpi-sync-runs.repository';
import type { SyncHostRow, SyncRow } from './kpi-syncs.repository';
import type { SyncHostResponse, SyncPolicyResponse, SyncResponse, SyncRunResponse } from './kpi-syncs.response';
import { referencedSecrets } from './sync-config';

const iso = (d: unknown): string | null => (d ? new Date(d as string).toISOString() : null);

/** The dry run counts for the current configuration and the secrets as they are now. */
export const dryRunPassed = (s: SyncRow): boolean =>
  s.dry_run_config_hash === s.config_hash && !!s.dry_run_at && (!s.secrets_updated_at || new Date(s.dry_run_at) >= new Date(s.secrets_updated_at));

/**
 * `full`: every field (owners and admins, and the member who drafted it); `redacted`: status only,
 * nothing that names the destination or its configuration.
 */
export function toSyncResponse(
  s: SyncRow,
  level: 'full' | 'redacted',
  extra: { secrets?: SecretMeta[]; kpi?: { id: string; name: string } } = {},
): SyncResponse {
  const base: SyncResponse = {
    id: s.id,
    kpi_id: s.kpi_id,
    name: s.name,
    status: s.status,
    schedule: s.schedule,
    redacted: level === 'redacted',
    config_version: s.config_version,
    published_at: iso(s.published_at),
    disabled_at: iso(s.disabled_at),
    last_run_at: iso(s.last_run_at),
    last_run_status: s.last_run_status ?? null,
    created_at: iso(s.created_at)!,
    updated_at: iso(s.updated_at)!,
    ...(extra.kpi ? { kpi: extra.kpi } : {}),
  };
  if (level === 'redacted') return base;
  return {
    ...base,
    request_config: s.request_config as unknown as Record<string, unknown>,
    extraction_config: s.extraction_config as unknown as Record<string, unknown>,
    freshness_config: s.freshness_config as unknown as Record<string, unknown>,
    config_hash: s.config_hash,
    secret_refs: referencedSecrets(s),
    validated: s.validated_config_hash === s.config_hash,
    validated_at: iso(s.validated_at),
    dry_run_passed: dryRunPassed(s),
    dry_run_at: iso(s.dry_run_at),
    created_by_member_id: s.created_by_member_id,
    ...(extra.secrets ? { secrets: extra.secrets } : {}),
  };
}

export const toRunResponse = (r: SyncRunRow): SyncRunResponse => ({
  id: r.id,
  sync_id: r.sync_id,
  kpi_id: r.kpi_id,
  trigger: r.trigger,
  status: r.status,
  recorded_for: r.recorded_for,
  observed_at: iso(r.observed_at),
  provider_recorded_at: iso(r.provider_recorded_at),
  http_status: r.http_status ?? null,
  duration_ms: r.duration_ms ?? null,
  response_bytes: r.response_bytes ?? null,
  extracted_value: r.extracted_value ?? null,
  snapshot_id: r.snapshot_id ?? null,
  error_code: r.error_code ?? null,
  redacted_error: r.redacted_error ?? null,
  config_version: r.config_version,
  config_hash: r.config_hash,
  triggered_by_member_id: r.triggered_by_member_id ?? null,
  created_at: iso(r.created_at)!,
  finished_at: iso(r.finished_at),
});

export const toHostResponse = (r: SyncHostRow): SyncHostResponse => ({
  host: r.host,
  created_by_member_id: r.created_by_member_id ?? null,
  created_at: iso(r.created_at)!,
});

export const toPolicyResponse = (rows: SyncHostRow[]): SyncPolicyResponse => ({
  hosts: rows.map(toHostResponse),
  allowed_hosts: rows.map((r) => r.host),
});
