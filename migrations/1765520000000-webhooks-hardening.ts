import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook hardening (see docs/DECISIONS.md "Webhooks"):
 * - a lease token on each delivery: a claim sets it, an outcome is written only while the row
 *   still carries it (a worker whose lease expired and was claimed again never overwrites the
 *   newer attempt);
 * - bounded history: payloads of delivered deliveries may be dropped (body NULL, only once
 *   delivered) and finished rows are deleted after the retention period, by the worker in small
 *   batches, each found through its own partial index (no scan of the whole table);
 * - `secret_unreadable`: a delivery whose destination secrets do not open (another key, or a value
 *   copied from another row: values are now bound to their row);
 * - partial indexes over the values still sealed without that binding (`v1.` prefix) so the
 *   worker's re-seal finds them without a scan, and finds nothing at all once they are converted.
 */
export class WebhooksHardening1765520000000 implements MigrationInterface {
  name = 'WebhooksHardening1765520000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE webhook_deliveries ADD COLUMN lease_token uuid;
      ALTER TABLE webhook_deliveries ALTER COLUMN body DROP NOT NULL;
      ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_body_ck CHECK (body IS NOT NULL OR status = 'delivered');
      ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_error_code_check;
      ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_error_code_check CHECK (error_code IN (
        'blocked_address', 'dns_failure', 'timeout', 'too_large', 'redirect', 'network_error', 'invalid_url', 'http_error', 'destination_disabled',
        'internal_error', 'secret_unreadable'));
      CREATE INDEX webhook_deliveries_expiry_idx ON webhook_deliveries (created_at) WHERE status IN ('delivered', 'failed');
      CREATE INDEX webhook_deliveries_payload_idx ON webhook_deliveries (delivered_at) WHERE status = 'delivered' AND body IS NOT NULL;
      CREATE INDEX webhook_versions_legacy_sealed_idx ON webhook_versions (org_id, id)
        WHERE (starts_with(url_enc, 'v1.') OR starts_with(bearer_enc, 'v1.') OR starts_with(standard_secret_enc, 'v1.'));
      CREATE INDEX webhook_signing_keys_legacy_sealed_idx ON webhook_signing_keys (org_id, webhook_id, version) WHERE starts_with(key_enc, 'v1.');
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP INDEX IF EXISTS webhook_signing_keys_legacy_sealed_idx;
      DROP INDEX IF EXISTS webhook_versions_legacy_sealed_idx;
      DROP INDEX IF EXISTS webhook_deliveries_payload_idx;
      DROP INDEX IF EXISTS webhook_deliveries_expiry_idx;
      DELETE FROM webhook_deliveries WHERE body IS NULL OR error_code = 'secret_unreadable';
      ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_error_code_check;
      ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_error_code_check CHECK (error_code IN (
        'blocked_address', 'dns_failure', 'timeout', 'too_large', 'redirect', 'network_error', 'invalid_url', 'http_error', 'destination_disabled',
        'internal_error'));
      ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_body_ck;
      ALTER TABLE webhook_deliveries ALTER COLUMN body SET NOT NULL;
      ALTER TABLE webhook_deliveries DROP COLUMN lease_token;
    `);
  }
}
