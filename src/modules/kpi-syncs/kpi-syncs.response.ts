export class SyncHostResponse {
  /** Exact DNS hostname, lowercased */
  host: string;
  created_by_member_id: string | null;
  created_at: string;
}
export class SyncPolicyResponse {
  /** The organization's exact-host allowlist */
  hosts: SyncHostResponse[];
  /** The same hosts as plain strings */
  allowed_hosts: string[];
}
export class SyncPolicyEnvelope {
  policy: SyncPolicyResponse;
}
export class SyncHostEnvelope {
  host: SyncHostResponse;
  policy: SyncPolicyResponse;
}

export class SyncSecretMetaResponse {
  /** The secret's name (what `secretRef` points at) */
  name: string;
  /** Whether a value is stored */
  configured: boolean;
  /** Whether the current configuration references it */
  referenced: boolean;
  updated_at: string | null;
}
export class SyncSecretsResponse {
  secrets: SyncSecretMetaResponse[];
}
export class SyncSecretEnvelope {
  secret: SyncSecretMetaResponse;
  secrets: SyncSecretMetaResponse[];
}

/**
 * A KPI HTTP sync. Callers who may not see configuration (non-admin members who did not create it)
 * get the redacted row: no request, extraction or freshness configuration, no hash.
 */
export class SyncResponse {
  id: string;
  kpi_id: string;
  name: string;
  /** `draft`, `published` or `disabled` */
  status: 'draft' | 'published' | 'disabled';
  /** `manual`, `hourly`, `daily` or `weekly` (UTC slots) */
  schedule: 'manual' | 'hourly' | 'daily' | 'weekly';
  /** Whether this row carries configuration (false: redacted status row) */
  redacted: boolean;
  /** `{ method: "GET", url, headers: { Authorization?: { secretRef, format }, "X-API-Key"?: … } }` */
  request_config?: Record<string, unknown>;
  /** `{ contentType: "json", pointer, numeric: { mode, percentageScale } }` */
  extraction_config?: Record<string, unknown>;
  /** `{ maxAgeHours?, providerTimestampPointer? }` */
  freshness_config?: Record<string, unknown>;
  /** Increases with every configuration change */
  config_version: number;
  /** `sha256:` + hex digest of the canonical configuration */
  config_hash?: string;
  /** Secret names the configuration references */
  secret_refs?: string[];
  /** Whether the current configuration passed POST …/validate */
  validated?: boolean;
  validated_at?: string | null;
  /** Whether the current configuration had a successful dry run (after the last secret change) */
  dry_run_passed?: boolean;
  dry_run_at?: string | null;
  /** Secret metadata (human owners and admins on the org-wide review) */
  secrets?: SyncSecretMetaResponse[];
  /** KPI summary (org-wide review) */
  kpi?: { id: string; name: string };
  published_at: string | null;
  disabled_at: string | null;
  last_run_at: string | null;
  last_run_status: 'queued' | 'running' | 'success' | 'error' | null;
  created_by_member_id?: string | null;
  created_at: string;
  updated_at: string;
}
export class SyncEnvelope {
  sync: SyncResponse;
}
export class SyncListResponse {
  syncs: SyncResponse[];
  total: number;
  limit: number;
  offset: number;
}

export class SyncValidationResponse {
  valid: boolean;
  /** The hash the configuration would get */
  config_hash: string;
  request_config: Record<string, unknown>;
  extraction_config: Record<string, unknown>;
  freshness_config: Record<string, unknown>;
  secret_refs: string[];
}
export class SyncValidateEnvelope {
  valid: boolean;
  sync: SyncResponse;
}

/** One run. Never request headers, secret values, response bodies or provider payloads. */
export class SyncRunResponse {
  id: string;
  sync_id: string;
  kpi_id: string;
  /** `dry_run`, `preview` (run-now without snapshot), `manual` (run-now with snapshot) or `schedule` */
  trigger: 'dry_run' | 'preview' | 'manual' | 'schedule';
  /** `queued`, `running`, `success` or `error` */
  status: 'queued' | 'running' | 'success' | 'error';
  /** ISO instant of the schedule slot the value is recorded for */
  recorded_for: string;
  observed_at: string | null;
  provider_recorded_at: string | null;
  http_status: number | null;
  duration_ms: number | null;
  response_bytes: number | null;
  extracted_value: number | null;
  snapshot_id: string | null;
  error_code: string | null;
  /** A fixed, safe description of the error (never provider content) */
  redacted_error: string | null;
  config_version: number;
  config_hash: string;
  triggered_by_member_id: string | null;
  created_at: string;
  finished_at: string | null;
}
export class SyncRunEnvelope {
  run: SyncRunResponse;
  sync: SyncResponse;
}
export class SyncRunListResponse {
  runs: SyncRunResponse[];
  total: number;
  limit: number;
  offset: number;
}
