import { randomUUID } from 'node:crypto';
import { WebhookSecrets, signingKeyOf } from '../../src/modules/webhooks/webhook-secrets';
import type { TestApp } from './app';

/** A webhook row written straight to the database (for outbox tests that need no HTTP). */
export async function insertWebhookRow(
  t: TestApp,
  orgId: string,
  o: { purpose?: string; enabled?: boolean; events?: string[]; url?: string; secret?: string } = {},
): Promise<string> {
  const box = t.app.get(WebhookSecrets);
  const id = randomUUID();
  const versionId = randomUUID();
  const url = o.url ?? 'https://hooks.example.com/in';
  await t.db.transaction(async (m) => {
    await m.query(
      `INSERT INTO webhooks (org_id, id, destination_display, events, enabled, purpose, current_version_id) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [orgId, id, new URL(url).origin, o.events ?? ['issue.created'], o.enabled ?? true, o.purpose ?? 'webhook', versionId],
    );
    await m.query(`INSERT INTO webhook_versions (org_id, id, webhook_id, url_enc, auth_type) VALUES ($1, $2, $3, $4, 'none')`, [orgId, versionId, id, box.encrypt(url)]);
    await m.query(`INSERT INTO webhook_signing_keys (org_id, webhook_id, version, key_enc) VALUES ($1, $2, 1, $3)`, [orgId, id, box.encrypt(signingKeyOf(o.secret ?? 'test-secret'))]);
  });
  return id;
}
