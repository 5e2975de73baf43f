import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import { DomainError } from '../../src/common/errors/domain-error';
import { jobIdOf, WebhookOutbox } from '../../src/modules/webhooks/webhook-outbox.service';
import { WEBHOOKS_QUEUE } from '../../src/modules/webhooks/webhooks.constants';
import { type TestApp, startTestApp } from '../support/app';
import { newOrg, randomId, type TestOrg } from '../support/factories';
import { insertWebhookRow } from '../support/webhooks';

/** The outbox contract used by automation rules: destination check and the v3 delivery row enqueued after commit. */
describe('WebhookOutbox (automation contract)', () => {
  let t: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  let outbox: WebhookOutbox;
  let queue: Queue;

  beforeAll(async () => {
    t = await startTestApp();
    org = await newOrg(t);
    other = await newOrg(t);
    outbox = t.app.get(WebhookOutbox);
    queue = t.app.get(getQueueToken(WEBHOOKS_QUEUE));
    await queue.pause(true); // this process has no processor; keep jobs waiting so the test can see them
  });
  afterAll(async () => {
    await t?.close();
  });

  const check = (orgId: string, id: string) => t.db.transaction((m) => outbox.assertAutomationDestination(m, orgId, id));

  it('assertAutomationDestination: 400 unless enabled, same organization and purpose automation or both', async () => {
    const auto = await insertWebhookRow(t, org.id, { purpose: 'automation' });
    const both = await insertWebhookRow(t, org.id, { purpose: 'both' });
    const plain = await insertWebhookRow(t, org.id, { purpose: 'webhook' });
    const disabled = await insertWebhookRow(t, org.id, { purpose: 'automation', enabled: false });
    await expect(check(org.id, auto)).resolves.toBeUndefined();
    await expect(check(org.id, both)).resolves.toBeUndefined();
    for (const [orgId, id] of [
      [org.id, plain],
      [org.id, disabled],
      [other.id, auto],
      [org.id, randomId()],
      [org.id, 'not-a-uuid'],
    ]) {
      const e = await check(orgId, id).catch((x) => x);
      expect(e).toBeInstanceOf(DomainError);
      expect(e).toMatchObject({ status: 400, code: 'validation_failed' });
    }
  });

  it('enqueueAutomationAction: the body exactly as given, schema 3, enqueued only after commit', async () => {
    const hook = await insertWebhookRow(t, org.id, { purpose: 'both' });
    const ruleId = randomId();
    const body = { event: 'automation.action', schema_version: 3, issue: { id: 'x', title: 'ünïcode ✓' }, trigger: { changedFields: ['status'] } };
    let seenInside: unknown = 'unset';
    const { deliveryId } = await t.db.transaction(async (m) => {
      const r = await outbox.enqueueAutomationAction(m, { orgId: org.id, webhookId: hook, ruleId, body });
      seenInside = await queue.getJob(jobIdOf({ orgId: org.id, id: r.deliveryId, attempts: 0 }));
      return r;
    });
    expect(seenInside).toBeNull(); // not before commit
    const [row] = await t.db.query('SELECT * FROM webhook_deliveries WHERE org_id = $1 AND id = $2', [org.id, deliveryId]);
    expect(row).toMatchObject({ event: 'automation.action', schema_version: 3, status: 'pending', automation_rule_id: ruleId, webhook_id: hook });
    expect(row.body).toBe(JSON.stringify(body));
    const job = await waitFor(() => queue.getJob(jobIdOf({ orgId: org.id, id: deliveryId, attempts: 0 })));
    expect(job?.data).toEqual({ orgId: org.id, id: deliveryId, attempts: 0 });
  });

  it('a rolled-back transaction leaves no delivery and no job', async () => {
    const hook = await insertWebhookRow(t, org.id, { purpose: 'automation' });
    let id = '';
    await t.db
      .transaction(async (m) => {
        id = (await outbox.enqueueAutomationAction(m, { orgId: org.id, webhookId: hook, ruleId: randomId(), body: { a: 1 } })).deliveryId;
        throw new Error('rollback');
      })
      .catch(() => undefined);
    expect(await t.db.query('SELECT 1 FROM webhook_deliveries WHERE org_id = $1 AND id = $2', [org.id, id])).toHaveLength(0);
    await new Promise((r) => setTimeout(r, 100));
    expect(await queue.getJob(jobIdOf({ orgId: org.id, id, attempts: 0 }))).toBeNull();
  });

  it('issue broadcasts go to purpose webhook and both, never to automation-only destinations', async () => {
    const fresh = await newOrg(t);
    const hooks = { webhook: '', automation: '', both: '' };
    for (const purpose of Object.keys(hooks) as Array<keyof typeof hooks>)
      hooks[purpose] = await insertWebhookRow(t, fresh.id, { purpose, events: ['issue.created'] });
    const issue = (await fresh.owner.http.post(`/api/orgs/${fresh.id}/issues`).send({ title: 'broadcast' }).expect(201)).body.issue;
    const rows: Array<{ webhook_id: string }> = await t.db.query('SELECT webhook_id FROM webhook_deliveries WHERE org_id = $1 AND issue_id = $2', [
      fresh.id,
      issue.id,
    ]);
    expect(rows.map((r) => r.webhook_id).sort()).toEqual([hooks.webhook, hooks.both].sort());
  });

  it('enqueueAutomationAction refuses a destination that is not usable by automation', async () => {
    const plain = await insertWebhookRow(t, org.id, { purpose: 'webhook' });
    const e = await t.db
      .transaction((m) => outbox.enqueueAutomationAction(m, { orgId: org.id, webhookId: plain, ruleId: randomId(), body: {} }))
      .catch((x) => x);
    expect(e).toMatchObject({ status: 400 });
  });
});

async function waitFor<T>(fn: () => Promise<T | null | undefined>): Promise<T | null | undefined> {
  for (let i = 0; i < 50; i++) {
    const v = await fn();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  return fn();
}
