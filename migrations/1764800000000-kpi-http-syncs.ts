import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * KPI HTTP syncs: the per-organization exact-host allowlist, the syncs themselves (one KPI each,
 * versioned and hashed configuration), their write-only secrets (AES-256-GCM ciphertext only) and
 * their run history. Same scale-out rule: org_id in every key and foreign key.
 *
 * Exactly once per scheduled slot: `kpi_http_sync_runs_scheduled_slot_uq` (one scheduled run per
 * sync and `recorded_for`), next to the sweep's `FOR UPDATE SKIP LOCKED` claim.
 */
export class KpiHttpSyncs1764800000000 implements MigrationInterface {
  name = 'KpiHttpSyncs1764800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE kpi_http_sync_hosts (
        org_id uuid NOT NULL,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        host text NOT NULL CHECK (host = lower(host) AND length(host) BETWEEN 1 AND 253 AND host ~ '^[a-z0-9.-]+$'),
        created_by_member_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT kpi_http_sync_hosts_host_uq UNIQUE (org_id, host),
        CONSTRAINT kpi_http_sync_hosts_org_fk FOREIGN KEY (org_id) REFERENCES organizations(id) ON DELETE CASCADE,
        CONSTRAINT kpi_http_sync_hosts_created_by_fk FOREIGN KEY (org_id, created_by_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED
      );

      CREATE TABLE kpi_http_syncs (
        org_id uuid NOT NULL,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        kpi_id uuid NOT NULL,
        name text NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 200),
        status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published', 'disabled')),
        schedule text NOT NULL DEFAULT 'daily' CHECK (schedule IN ('manual', 'hourly', 'daily', 'weekly')),
        request_config jsonb NOT NULL,
        extraction_config jsonb NOT NULL,
        freshness_config jsonb NOT NULL DEFAULT '{}'::jsonb,
        config_version integer NOT NULL DEFAULT 1 CHECK (config_version >= 1),
        config_hash text NOT NULL CHECK (config_hash ~ '^sha256:[0-9a-f]{64}$'),
        -- publish gates: the hash that passed validation and a successful dry run
        validated_config_hash text,
        validated_at timestamptz,
        dry_run_config_hash text,
        dry_run_at timestamptz,
        secrets_updated_at timestamptz,
        published_at timestamptz,
        published_by_member_id uuid,
        disabled_at timestamptz,
        -- the last scheduled slot claimed by the sweep (ISO instant of the slot start)
        last_scheduled_slot text,
        last_run_at timestamptz,
        last_run_status text CHECK (last_run_status IN ('queued', 'running', 'success', 'error')),
        created_by_member_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT kpi_http_syncs_kpi_fk FOREIGN KEY (org_id, kpi_id) REFERENCES kpis(org_id, id) ON DELETE CASCADE,
        CONSTRAINT kpi_http_syncs_created_by_fk FOREIGN KEY (org_id, created_by_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED,
        CONSTRAINT kpi_http_syncs_published_by_fk FOREIGN KEY (org_id, published_by_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED,
        CONSTRAINT kpi_http_syncs_published_has_time CHECK (status <> 'published' OR published_at IS NOT NULL)
      );
      CREATE INDEX kpi_http_syncs_kpi_idx ON kpi_http_syncs (org_id, kpi_id, created_at);
      CREATE INDEX kpi_http_syncs_due_idx ON kpi_http_syncs (schedule, last_scheduled_slot) WHERE status = 'published' AND schedule <> 'manual';

      CREATE TABLE kpi_http_sync_secrets (
        org_id uuid NOT NULL,
        sync_id uuid NOT NULL,
        name text NOT NULL CHECK (name ~ '^[A-Za-z][A-Za-z0-9_]{0,63}$'),
        -- AES-256-GCM: 12-byte nonce, ciphertext, 16-byte tag; AAD binds org, sync and name
        nonce bytea NOT NULL CHECK (length(nonce) = 12),
        ciphertext bytea NOT NULL,
        auth_tag bytea NOT NULL CHECK (length(auth_tag) = 16),
        key_id text NOT NULL CHECK (length(key_id) <= 32),
        updated_by_member_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, sync_id, name),
        CONSTRAINT kpi_http_sync_secrets_sync_fk FOREIGN KEY (org_id, sync_id) REFERENCES kpi_http_syncs(org_id, id) ON DELETE CASCADE,
        CONSTRAINT kpi_http_sync_secrets_updated_by_fk FOREIGN KEY (org_id, updated_by_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED
      );

      CREATE TABLE kpi_http_sync_runs (
        org_id uuid NOT NULL,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        sync_id uuid NOT NULL,
        kpi_id uuid NOT NULL,
        trigger text NOT NULL CHECK (trigger IN ('dry_run', 'preview', 'manual', 'schedule')),
        status text NOT NULL CHECK (status IN ('queued', 'running', 'success', 'error')),
        recorded_for text NOT NULL CHECK (length(recorded_for) <= 100),
        observed_at timestamptz,
        provider_recorded_at timestamptz,
        http_status integer CHECK (http_status BETWEEN 100 AND 599),
        duration_ms integer CHECK (duration_ms >= 0),
        response_bytes integer CHECK (response_bytes >= 0),
        extracted_value double precision,
        snapshot_id uuid,
        error_code text CHECK (length(error_code) <= 64),
        redacted_error text CHECK (length(redacted_error) <= 500),
        config_version integer NOT NULL,
        config_hash text NOT NULL,
        triggered_by_member_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz,
        PRIMARY KEY (org_id, id),
        CONSTRAINT kpi_http_sync_runs_sync_fk FOREIGN KEY (org_id, sync_id) REFERENCES kpi_http_syncs(org_id, id) ON DELETE CASCADE,
        CONSTRAINT kpi_http_sync_runs_snapshot_fk FOREIGN KEY (org_id, snapshot_id) REFERENCES kpi_snapshots(org_id, id) ON DELETE SET NULL (snapshot_id),
        CONSTRAINT kpi_http_sync_runs_triggered_by_fk FOREIGN KEY (org_id, triggered_by_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED,
        CONSTRAINT kpi_http_sync_runs_finished CHECK ((status IN ('success', 'error')) = (finished_at IS NOT NULL)),
        CONSTRAINT kpi_http_sync_runs_error_code CHECK ((status = 'error') = (error_code IS NOT NULL)),
        CONSTRAINT kpi_http_sync_runs_snapshot_only_on_success CHECK (snapshot_id IS NULL OR status = 'success')
      );
      CREATE UNIQUE INDEX kpi_http_sync_runs_scheduled_slot_uq ON kpi_http_sync_runs (org_id, sync_id, recorded_for) WHERE trigger = 'schedule';
      CREATE INDEX kpi_http_sync_runs_sync_idx ON kpi_http_sync_runs (org_id, sync_id, created_at DESC, id DESC);
      CREATE INDEX kpi_http_sync_runs_unfinished_idx ON kpi_http_sync_runs (created_at) WHERE status IN ('queued', 'running');
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS kpi_http_sync_runs, kpi_http_sync_secrets, kpi_http_syncs, kpi_http_sync_hosts CASCADE');
  }
}
