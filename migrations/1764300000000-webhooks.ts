import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Outbound webhooks: destinations, their private destination versions (URL + authentication,
 * pinned by each delivery), versioned signing keys, and the delivery outbox (written in the
 * transaction of the change that caused it, drained by the worker). Secrets are stored encrypted
 * (AES-256-GCM, WEBHOOK_ENCRYPTION_KEY); nothing here is readable without that key.
 */
export class Webhooks1764300000000 implements MigrationInterface {
  name = 'Webhooks1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhooks (
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        -- origin only (scheme, host, port): what lists show; the full URL lives encrypted on the version
        destination_display text NOT NULL CHECK (length(destination_display) <= 300),
        events text[] NOT NULL DEFAULT '{}' CHECK (events <@ ARRAY['issue.created', 'issue.updated']::text[]),
        enabled boolean NOT NULL DEFAULT true,
        purpose text NOT NULL DEFAULT 'webhook' CHECK (purpose IN ('webhook', 'automation', 'both')),
        current_version_id uuid NOT NULL,
        consecutive_failures integer NOT NULL DEFAULT 0 CHECK (consecutive_failures >= 0),
        last_failure_at timestamptz,
        last_success_at timestamptz,
        created_by_member_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id)
      );
      CREATE INDEX webhooks_org_created_idx ON webhooks (org_id, created_at, id);
      -- /api/webhooks/{id} routes find the organization from the webhook id
      CREATE INDEX webhooks_id_idx ON webhooks (id);
      CREATE INDEX webhooks_org_enabled_events_idx ON webhooks USING gin (events) WHERE enabled;

      CREATE TABLE webhook_versions (
        org_id uuid NOT NULL,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        webhook_id uuid NOT NULL,
        url_enc text NOT NULL,
        auth_type text NOT NULL CHECK (auth_type IN ('none', 'bearer')),
        bearer_enc text,
        standard_secret_enc text,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id),
        -- lets deliveries and the webhook point at a version OF THAT webhook (composite keys below)
        CONSTRAINT webhook_versions_webhook_version_uq UNIQUE (org_id, webhook_id, id),
        CONSTRAINT webhook_versions_webhook_fk FOREIGN KEY (org_id, webhook_id) REFERENCES webhooks(org_id, id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
        CONSTRAINT webhook_versions_bearer_ck CHECK ((auth_type = 'bearer') = (bearer_enc IS NOT NULL))
      );
      CREATE INDEX webhook_versions_webhook_idx ON webhook_versions (org_id, webhook_id);
      ALTER TABLE webhooks ADD CONSTRAINT webhooks_current_version_fk FOREIGN KEY (org_id, id, current_version_id)
        REFERENCES webhook_versions(org_id, webhook_id, id) DEFERRABLE INITIALLY DEFERRED;

      -- HMAC keys (SHA-256 hex of the secret shown at creation), versioned for rotation overlap
      CREATE TABLE webhook_signing_keys (
        org_id uuid NOT NULL,
        webhook_id uuid NOT NULL,
        version integer NOT NULL CHECK (version >= 1),
        key_enc text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        -- null: the primary key; set when superseded: the end of its overlap window
        retires_at timestamptz,
        PRIMARY KEY (org_id, webhook_id, version),
        CONSTRAINT webhook_signing_keys_webhook_fk FOREIGN KEY (org_id, webhook_id) REFERENCES webhooks(org_id, id) ON DELETE CASCADE
      );
      CREATE UNIQUE INDEX webhook_signing_keys_one_primary_uq ON webhook_signing_keys (org_id, webhook_id) WHERE retires_at IS NULL;

      CREATE TABLE webhook_deliveries (
        org_id uuid NOT NULL,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        webhook_id uuid NOT NULL,
        -- pinned destination version (URL and authentication) and signing versions (primary first)
        version_id uuid NOT NULL,
        signing_versions integer[] NOT NULL CHECK (cardinality(signing_versions) >= 1),
        -- X-Service-Delivery-Id, Idempotency-Key and webhook-id: kept by automatic retries
        delivery_id uuid NOT NULL,
        event text NOT NULL CHECK (event IN ('issue.created', 'issue.updated', 'ping', 'automation.action')),
        schema_version integer NOT NULL CHECK (schema_version IN (2, 3)),
        -- the exact bytes that are signed and sent
        body text NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'retry_pending', 'failed')),
        attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
        status_code integer CHECK (status_code BETWEEN 100 AND 599),
        error_code text CHECK (error_code IN ('blocked_address', 'dns_failure', 'timeout', 'too_large', 'redirect', 'network_error', 'invalid_url', 'http_error', 'destination_disabled', 'internal_error')),
        next_retry_at timestamptz,
        locked_until timestamptz,
        last_attempt_at timestamptz,
        delivered_at timestamptz,
        issue_id uuid,
        automation_rule_id uuid,
        redelivery_of uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT webhook_deliveries_webhook_fk FOREIGN KEY (org_id, webhook_id) REFERENCES webhooks(org_id, id) ON DELETE CASCADE,
        CONSTRAINT webhook_deliveries_version_fk FOREIGN KEY (org_id, webhook_id, version_id) REFERENCES webhook_versions(org_id, webhook_id, id) ON DELETE CASCADE,
        CONSTRAINT webhook_deliveries_retry_ck CHECK (status <> 'retry_pending' OR next_retry_at IS NOT NULL),
        CONSTRAINT webhook_deliveries_delivered_ck CHECK ((status = 'delivered') = (delivered_at IS NOT NULL)),
        CONSTRAINT webhook_deliveries_delivered_no_error_ck CHECK (status <> 'delivered' OR error_code IS NULL)
      );
      CREATE UNIQUE INDEX webhook_deliveries_delivery_id_uq ON webhook_deliveries (org_id, delivery_id);
      CREATE INDEX webhook_deliveries_history_idx ON webhook_deliveries (org_id, webhook_id, created_at DESC, id DESC);
      CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_retry_at, created_at) WHERE status IN ('pending', 'retry_pending');
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE IF EXISTS webhook_deliveries;
      DROP TABLE IF EXISTS webhook_signing_keys;
      ALTER TABLE IF EXISTS webhooks DROP CONSTRAINT IF EXISTS webhooks_current_version_fk;
      DROP TABLE IF EXISTS webhook_versions;
      DROP TABLE IF EXISTS webhooks;
    `);
  }
}
