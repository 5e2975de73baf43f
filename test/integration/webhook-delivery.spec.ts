import type { TestingModule } from '@nestjs/testing';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { EgressClient } from '../../src/common/egress/egress-client';
import { WebhookDeliverer } from '../../src/modules/webhooks/webhook-deliverer.service';
import { WebhookDrain } from '../../src/modules/webhooks/webhook-drain.service';
import { WebhooksRepository } from '../../src/modules/webhooks/webhooks.repository';
import { standardSigner } from '../../src/modules/webhooks/webhook-secrets';
import { type TestApp, startTestApp } from '../support/app';
import { newOrg, newProject, type TestOrg } from '../support/factories';
import { expectedServiceSignature, OffsetClock, type Received, Receiver, startTestWorker } from '../support/webhooks';

/**
 * Delivery end to end: the real API writes issues, the real worker module (in-process, short
 * injected retry delays) delivers to a local receiver on 127.0.0.1 (loopback setting on).
 */
describe('webhook delivery (API + worker + local receiver)', () => {
  let t: TestApp;
  let worker: TestingModule;
  let org: TestOrg;
  let project: { id: string; key: string };
  let rx: Receiver;
  const clock = new OffsetClock();
  const STD = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

  beforeAll(async () => {
    t = await startTestApp({ SERVICE_ALLOW_LOOPBACK_WEBHOOKS: '1' });
    // hooks.example.com resolves to a private address for the worker: the SSRF check must refuse it
    const egress = EgressClient.create({
      allowLoopback: true,
      resolver: async (h) => [{ address: h === 'public-but-mapped.example.com' ? '::ffff:10.0.0.1' : '10.0.0.5', family: 4 }],
    });
    worker = await startTestWorker(t.config, { egress, clock });
    org = await newOrg(t);
    project = await newProject(t, org);
    rx = await new Receiver().start();
  });
  afterAll(async () => {
    await worker?.close();
    await rx?.stop();
    await t?.close();
  });

  const createHook = async (body: Record<string, unknown>) => {
    const res = await org.owner.http.post(`/api/webhooks?orgId=${org.id}`).send(body).expect(201);
    return { id: res.body.webhook.id as string, secret: res.body.secret as string };
  };
  const newIssue = async (title: string, extra: Record<string, unknown> = {}) =>
    (
      await org.owner.http
        .post(`/api/orgs/${org.id}/issues`)
        .send({ projectId: project.id, title, description: 'TOP-SECRET-DESCRIPTION', ...extra })
        .expect(201)
    ).body.issue;
  const history = async (hookId: string) => (await org.owner.http.get(`/api/webhooks/${hookId}/deliveries`).expect(200)).body.deliveries as any[];
  const waitHistory = async (hookId: string, pred: (d: any[]) => boolean, timeoutMs = 10_000) => {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const h = await history(hookId);
      if (pred(h)) return h;
      if (Date.now() > end) throw new Error(`history never matched: ${JSON.stringify(h)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const forIssue = (id: string) => (r: Received) => r.text.includes(id);

  it('issue.created arrives signed (independently recomputed HMAC), with ids, bearer token and a v2 payload without the description', async () => {
    const hook = await createHook({ url: rx.url('/a/in?k=1'), events: ['issue.created'], auth: { type: 'bearer', secret: 'tok-123' } });
    const issue = await newIssue('first');
    const rec = await rx.waitFor(forIssue(issue.id));
    expect(rec.path).toBe('/a/in');
    expect(rec.headers['content-type']).toBe('application/json');
    expect(rec.headers['x-service-signature']).toBe(expectedServiceSignature(hook.secret, rec.raw));
    expect(rec.headers['x-service-signature-version']).toBe('v1');
    expect(rec.headers['x-service-signatures']).toBe(`v1=${expectedServiceSignature(hook.secret, rec.raw)}`);
    expect(rec.headers['x-service-delivery-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(rec.headers['idempotency-key']).toBe(rec.headers['x-service-delivery-id']);
    expect(rec.headers.authorization).toBe('Bearer tok-123');
    expect(rec.headers['webhook-signature']).toBeUndefined();
    expect(rec.json).toMatchObject({
      event: 'issue.created',
      schema_version: 2,
      organization_id: org.id,
      issue: { id: issue.id, title: 'first', status: issue.status, project_id: project.id, identifier: `${project.key}-${issue.number}`, archived: false },
      project: { id: project.id, key: project.key },
    });
    expect(rec.text).not.toContain('TOP-SECRET-DESCRIPTION');
    expect(rec.text).not.toContain('description');
    const [d] = await waitHistory(hook.id, (h) => h[0]?.status === 'delivered');
    expect(d).toMatchObject({
      delivery_id: rec.headers['x-service-delivery-id'],
      event: 'issue.created',
      status: 'delivered',
      status_code: 200,
      error_code: null,
      next_retry_at: null,
    });
    expect(JSON.stringify(d)).not.toContain('RECEIVER-RESPONSE-BODY');
  });

  it('issue.updated: changed field names only; archive and unarchive are issue.updated; unsubscribed destinations get nothing', async () => {
    const created = await createHook({ url: rx.url('/c-only/'), events: ['issue.created'] });
    await createHook({ url: rx.url('/u/'), events: ['issue.updated'] });
    const issue = await newIssue('to update');
    await org.owner.http.patch(`/api/orgs/${org.id}/issues/${issue.id}`).send({ title: 'renamed', description: 'NEW-SECRET-DESC' }).expect(200);
    const upd = await rx.waitFor((r) => r.path.startsWith('/u/') && forIssue(issue.id)(r));
    expect(upd.json).toMatchObject({ event: 'issue.updated', schema_version: 2, issue: { title: 'renamed' }, changes: { kind: 'updated' } });
    expect(upd.json.changes.fields).toContain('title');
    expect(upd.text).not.toContain('NEW-SECRET-DESC');
    expect(upd.text).not.toContain('to update'); // no before values
    await rx.waitFor((r) => r.path.startsWith('/c-only/') && forIssue(issue.id)(r));
    const archived = await org.owner.http.post(`/api/orgs/${org.id}/issues/${issue.id}/archive`).send({});
    expect(archived.status).toBeLessThan(300);
    const a = await rx.waitFor((r) => r.path.startsWith('/u/') && forIssue(issue.id)(r) && r.json?.changes?.kind === 'archived');
    expect(a.json).toMatchObject({ event: 'issue.updated', issue: { archived: true }, changes: { fields: ['archived'] } });
    expect(rx.on('/c-only/').filter((r) => forIssue(issue.id)(r) && r.json.event === 'issue.updated')).toHaveLength(0);
    expect((await history(created.id)).every((d) => d.event === 'issue.created')).toBe(true);
  });

  it('Standard Webhooks headers verify with the standardwebhooks library and an independent HMAC', async () => {
    await createHook({ url: rx.url('/std/'), events: ['issue.created'], standard_webhooks: { enabled: true, secret: STD } });
    const issue = await newIssue('std');
    const rec = await rx.waitFor((r) => r.path.startsWith('/std/') && forIssue(issue.id)(r));
    expect(rec.headers['webhook-id']).toBe(rec.headers['x-service-delivery-id']);
    expect(String(rec.headers['webhook-timestamp'])).toMatch(/^\d{10}$/);
    const key = Buffer.from(STD.slice(6), 'base64');
    const { createHmac } = await import('node:crypto');
    const want = createHmac('sha256', key).update(`${rec.headers['webhook-id']}.${rec.headers['webhook-timestamp']}.`).update(rec.raw).digest('base64');
    expect(rec.headers['webhook-signature']).toBe(`v1,${want}`);
    expect(() => new StandardWebhook(STD).verify(rec.text, rec.headers as Record<string, string>)).not.toThrow();
  });

  it('signs like the Standard Webhooks specification test vector', () => {
    // the published reference vector of the Standard Webhooks test suite, through the signer deliveries use
    const sign = standardSigner('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
    expect(sign('msg_p5jXN8AQM9LWM0D4loKWxJek', new Date(1614265330 * 1000), '{"test": 2432232314}')).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('5xx: retried after the injected delays with the same ids, then retry_pending; the sweep delivers once the receiver recovers', async () => {
    rx.mode('/retry/', 'fail');
    const hook = await createHook({ url: rx.url('/retry/'), events: ['issue.created'] });
    const issue = await newIssue('retry me');
    const tries = await rx.waitCount((r) => r.path.startsWith('/retry/') && forIssue(issue.id)(r), 3);
    expect(new Set(tries.map((r) => r.headers['x-service-delivery-id'])).size).toBe(1);
    expect(new Set(tries.map((r) => r.headers['idempotency-key'])).size).toBe(1);
    expect(new Set(tries.map((r) => r.text)).size).toBe(1);
    // delayed jobs never run early: the gaps are at least the injected 300 ms and 600 ms
    expect(tries[1].at - tries[0].at).toBeGreaterThanOrEqual(280);
    expect(tries[2].at - tries[1].at).toBeGreaterThanOrEqual(580);
    const [d] = await waitHistory(hook.id, (h) => h[0]?.status === 'retry_pending');
    expect(d).toMatchObject({ status: 'retry_pending', status_code: 500, error_code: 'http_error', attempts: 3 });
    expect(new Date(d.next_retry_at).getTime()).toBeGreaterThan(Date.now());
    const [health] = await t.db.query('SELECT consecutive_failures, last_failure_at FROM webhooks WHERE org_id = $1 AND id = $2', [org.id, hook.id]);
    expect(health.consecutive_failures).toBe(3);
    expect(health.last_failure_at).not.toBeNull();
    const failing = await t.app.get(WebhooksRepository).failing(org.id, 3);
    expect(failing.find((f) => f.webhookId === hook.id)).toMatchObject({ consecutiveFailures: 3, enabled: true });

    rx.mode('/retry/', 'ok');
    const drain = worker.get(WebhookDrain);
    expect(await drain.sweepRetries()).toBe(0); // not due yet
    clock.offsetMs = 16 * 60_000; // the next 15-minute sweep
    try {
      expect(await drain.sweepRetries()).toBeGreaterThanOrEqual(1);
      const ok = await rx.waitFor((r) => r.path.startsWith('/retry/') && forIssue(issue.id)(r) && r !== tries[0] && r !== tries[1] && r !== tries[2]);
      expect(ok.headers['x-service-delivery-id']).toBe(tries[0].headers['x-service-delivery-id']);
      await waitHistory(hook.id, (h) => h[0]?.status === 'delivered');
    } finally {
      clock.offsetMs = 0;
    }
    const [after] = await t.db.query('SELECT consecutive_failures FROM webhooks WHERE org_id = $1 AND id = $2', [org.id, hook.id]);
    expect(after.consecutive_failures).toBe(0);
    expect((await t.app.get(WebhooksRepository).failing(org.id)).find((f) => f.webhookId === hook.id)).toBeUndefined();
  });

  it('4xx: failed at once, never retried', async () => {
    rx.mode('/gone/', 'gone');
    const hook = await createHook({ url: rx.url('/gone/'), events: ['issue.created'] });
    const issue = await newIssue('gone');
    const [d] = await waitHistory(hook.id, (h) => h[0]?.status === 'failed');
    expect(d).toMatchObject({ status: 'failed', status_code: 410, error_code: 'http_error', attempts: 1, next_retry_at: null });
    await new Promise((r) => setTimeout(r, 800)); // longer than both injected retry delays
    expect(rx.on('/gone/').filter(forIssue(issue.id))).toHaveLength(1);
  });

  it('a delivery whose secrets cannot be opened (sealed under another key) fails with secret_unreadable instead of looping', async () => {
    const hook = await createHook({ url: rx.url('/sealed/'), events: [] });
    // the destination version as if written under another SERVICE_ENCRYPTION_KEY
    await t.db.query("UPDATE webhook_versions SET url_enc = 'v1.0000000000000000.AAAA.AAAA.AAAA' WHERE webhook_id = $1", [hook.id]);
    await org.owner.http.post(`/api/webhooks/${hook.id}/test`).expect(202);
    const [d] = await waitHistory(hook.id, (h) => h[0]?.status === 'failed');
    expect(d).toMatchObject({ status: 'failed', error_code: 'secret_unreadable', status_code: null });
    expect(rx.on('/sealed/')).toHaveLength(0);
  });

  it('a status outside 100..599 is a failed attempt that is retried and recorded (never a stuck row)', async () => {
    rx.mode('/odd/', 'odd-status');
    const hook = await createHook({ url: rx.url('/odd/'), events: ['issue.created'] });
    const issue = await newIssue('odd status');
    await rx.waitCount((r) => r.path.startsWith('/odd/') && forIssue(issue.id)(r), 3);
    const [d] = await waitHistory(hook.id, (h) => h[0]?.status === 'retry_pending');
    expect(d).toMatchObject({ status: 'retry_pending', status_code: null, error_code: 'http_error', attempts: 3 });
  });

  it('a 2xx with an oversized response body is delivered (the body is not needed) and not sent again', async () => {
    rx.mode('/big-ok/', 'big-ok');
    const hook = await createHook({ url: rx.url('/big-ok/'), events: ['issue.created'] });
    const issue = await newIssue('big ok');
    await rx.waitFor((r) => r.path.startsWith('/big-ok/') && forIssue(issue.id)(r));
    const [d] = await waitHistory(hook.id, (h) => h[0] && h[0].status !== 'pending');
    expect(d).toMatchObject({ status: 'delivered', status_code: 200, error_code: null, attempts: 1 });
    await new Promise((r) => setTimeout(r, 800)); // longer than both injected retry delays
    expect(rx.on('/big-ok/').filter(forIssue(issue.id))).toHaveLength(1);
  });

  it('a redirect (here to an internal path) is a failed attempt and is never followed', async () => {
    rx.mode('/redir/', 'redirect');
    const hook = await createHook({ url: rx.url('/redir/'), events: ['issue.created'] });
    await newIssue('redirect');
    const [d] = await waitHistory(hook.id, (h) => h[0]?.error_code === 'redirect');
    expect(d).toMatchObject({ status_code: 302, error_code: 'redirect' });
    expect(rx.on('/internal-target')).toHaveLength(0);
  });

  it('a hostname resolving to a private (or IPv4-mapped private) address is refused at delivery (blocked_address)', async () => {
    for (const host of ['hooks.example.com', 'public-but-mapped.example.com']) {
      const hook = await createHook({ url: `https://${host}/in`, events: ['issue.created'] });
      await newIssue(`ssrf ${host}`);
      const [d] = await waitHistory(hook.id, (h) => h[0]?.error_code === 'blocked_address');
      expect(d.status_code).toBeNull();
      await org.owner.http.delete(`/api/webhooks/${hook.id}`).expect(200);
    }
  });

  it('automatic retry keeps the ids; manual redelivery sends the same body with new ids', async () => {
    rx.mode('/ff/', 'fail-first');
    const hook = await createHook({ url: rx.url('/ff/'), events: ['issue.created'] });
    const issue = await newIssue('redeliver');
    const [first, second] = await rx.waitCount((r) => r.path.startsWith('/ff/') && forIssue(issue.id)(r), 2);
    expect(second.headers['x-service-delivery-id']).toBe(first.headers['x-service-delivery-id']);
    const [d] = await waitHistory(hook.id, (h) => h[0]?.status === 'delivered');
    const res = await org.owner.http.post(`/api/webhooks/${hook.id}/redeliver/${d.id}`).send({}).expect(202);
    expect(res.body.delivery).toMatchObject({ event: 'issue.created', schema_version: 2, redelivery_of: d.id });
    expect(res.body.delivery.delivery_id).not.toBe(d.delivery_id);
    const again = await rx.waitFor((r) => r.path.startsWith('/ff/') && r.headers['x-service-delivery-id'] === res.body.delivery.delivery_id);
    expect(again.text).toBe(first.text);
    expect(again.headers['idempotency-key']).not.toBe(first.headers['idempotency-key']);
    // by delivery_id too
    await org.owner.http.post(`/api/webhooks/${hook.id}/redeliver/${d.delivery_id}`).send({}).expect(202);
  });

  it('batches: the destinations of one change go as one job; attemptMany claims what is due and unheld, records every outcome and the failure counters in one statement', async () => {
    rx.mode('/batch-b/', 'gone'); // refused for good: failed at once, no retry job
    const a = await createHook({ url: rx.url('/batch-a/'), events: ['issue.created'] });
    const b = await createHook({ url: rx.url('/batch-b/'), events: ['issue.created'] });
    const c = await createHook({ url: rx.url('/batch-c/'), events: ['issue.created'] });
    const issue = await newIssue('batched');
    const [da] = await waitHistory(a.id, (h) => h[0]?.status === 'delivered');
    const [dc] = await waitHistory(c.id, (h) => h[0]?.status === 'delivered');
    const [db] = await waitHistory(b.id, (h) => h[0]?.status === 'failed');
    expect(db).toMatchObject({ status_code: 410, error_code: 'http_error', attempts: 1 });
    const failures = async (id: string) =>
      (await t.db.query('SELECT consecutive_failures AS n FROM webhooks WHERE org_id = $1 AND id = $2', [org.id, id]))[0].n;
    expect(await failures(b.id)).toBe(1);

    // a held row (another worker's lease), a row due again and a retry not due yet: only the due one goes
    await t.db.query(
      `UPDATE webhook_deliveries SET status = 'pending', delivered_at = NULL, locked_until = now() + interval '60 seconds' WHERE org_id = $1 AND id = $2`,
      [org.id, da.id],
    );
    await t.db.query(`UPDATE webhook_deliveries SET status = 'pending', delivered_at = NULL WHERE org_id = $1 AND id = $2`, [org.id, dc.id]);
    await t.db.query(`UPDATE webhook_deliveries SET status = 'pending', next_retry_at = now() + interval '1 hour' WHERE org_id = $1 AND id = $2`, [
      org.id,
      db.id,
    ]);
    const deliverer = worker.get(WebhookDeliverer);
    const ref = (d: { id: string; attempts: number }) => ({ orgId: org.id, id: d.id, attempts: d.attempts });
    const sentBefore = rx.reqs.filter(forIssue(issue.id)).length;
    expect(await deliverer.attemptMany([ref(da), ref(dc), ref(db)])).toEqual(['delivered']);
    expect(rx.reqs.filter(forIssue(issue.id))).toHaveLength(sentBefore + 1);
    // the failing destination recovers: its success resets the counter
    rx.mode('/batch-b/', 'ok');
    await t.db.query(`UPDATE webhook_deliveries SET next_retry_at = now() - interval '1 second' WHERE org_id = $1 AND id = $2`, [org.id, db.id]);
    expect(await deliverer.attemptMany([ref(db)])).toEqual(['delivered']);
    expect(await failures(b.id)).toBe(0);
    const [row] = await t.db.query('SELECT status, attempts, locked_until FROM webhook_deliveries WHERE org_id = $1 AND id = $2', [org.id, db.id]);
    expect(row).toMatchObject({ status: 'delivered', attempts: 2, locked_until: null });
  });

  it('the claim: a delivered row or one under another lease is skipped (nothing sent); an unheld due row is claimed and sent again with the same ids', async () => {
    const hook = await createHook({ url: rx.url('/claim/'), events: ['issue.created'] });
    const issue = await newIssue('claimed');
    await rx.waitFor((r) => r.path.startsWith('/claim/') && forIssue(issue.id)(r));
    const [d] = await waitHistory(hook.id, (h) => h[0]?.status === 'delivered');
    const deliverer = worker.get(WebhookDeliverer);
    const ref = { orgId: org.id, id: d.id as string, attempts: 1 };
    expect(await deliverer.attempt(ref)).toBe('skipped'); // already delivered
    // as if another worker held it: pending again, but leased
    await t.db.query(
      `UPDATE webhook_deliveries SET status = 'pending', delivered_at = NULL, locked_until = now() + interval '60 seconds' WHERE org_id = $1 AND id = $2`,
      [org.id, d.id],
    );
    expect(await deliverer.attempt(ref)).toBe('skipped');
    expect(rx.on('/claim/')).toHaveLength(1);
    // the lease expired: claimed and sent again (at least once), same ids, then delivered with the attempt counted
    await t.db.query(`UPDATE webhook_deliveries SET locked_until = now() - interval '1 second' WHERE org_id = $1 AND id = $2`, [org.id, d.id]);
    expect(await deliverer.attempt(ref)).toBe('delivered');
    const sent = rx.on('/claim/');
    expect(sent).toHaveLength(2);
    expect(sent[1].headers['x-service-delivery-id']).toBe(sent[0].headers['x-service-delivery-id']);
    const [row] = await t.db.query('SELECT status, attempts, locked_until FROM webhook_deliveries WHERE org_id = $1 AND id = $2', [org.id, d.id]);
    expect(row).toMatchObject({ status: 'delivered', attempts: 2, locked_until: null });
  });

  it('ping: a signed schema-2 `ping` delivery, also to a disabled destination', async () => {
    const hook = await createHook({ url: rx.url('/ping/'), events: ['issue.created'], enabled: false });
    const res = await org.owner.http.post(`/api/webhooks/${hook.id}/test`).send({}).expect(202);
    const rec = await rx.waitFor((r) => r.path.startsWith('/ping/') && r.headers['x-service-delivery-id'] === res.body.delivery.delivery_id);
    expect(rec.json).toMatchObject({ event: 'ping', schema_version: 2, webhook_id: hook.id });
    expect(rec.headers['x-service-signature']).toBe(expectedServiceSignature(hook.secret, rec.raw));
  });

  it('queued deliveries keep their pinned destination version; new ones use the changed URL and token', async () => {
    rx.mode('/v1/', 'fail-first');
    const hook = await createHook({ url: rx.url('/v1/'), events: ['issue.created'], auth: { type: 'bearer', secret: 'old-token' } });
    const issue = await newIssue('pinned');
    await rx.waitFor((r) => r.path.startsWith('/v1/') && forIssue(issue.id)(r)); // first attempt failed; the retry waits 300 ms
    await org.owner.http
      .patch(`/api/webhooks/${hook.id}`)
      .send({ url: rx.url('/v2/'), auth: { type: 'bearer', secret: 'new-token' } })
      .expect(200);
    const retry = await rx.waitCount((r) => r.path.startsWith('/v1/') && forIssue(issue.id)(r), 2);
    expect(retry[1].headers.authorization).toBe('Bearer old-token');
    const next = await newIssue('after change');
    const rec = await rx.waitFor((r) => r.path.startsWith('/v2/') && forIssue(next.id)(r));
    expect(rec.headers.authorization).toBe('Bearer new-token');
    expect(rx.on('/v1/').filter(forIssue(next.id))).toHaveLength(0);
  });

  it('secret rotation: the new key is primary, the previous one still signs during the overlap', async () => {
    const hook = await createHook({ url: rx.url('/rot/'), events: ['issue.created'] });
    const res = await org.owner.http.patch(`/api/webhooks/${hook.id}`).send({ rotate_secret: true }).expect(200);
    expect(res.body.secret).toEqual(expect.any(String));
    expect(res.body.secret).not.toBe(hook.secret);
    const issue = await newIssue('rotated');
    const rec = await rx.waitFor((r) => r.path.startsWith('/rot/') && forIssue(issue.id)(r));
    expect(rec.headers['x-service-signature']).toBe(expectedServiceSignature(res.body.secret, rec.raw));
    expect(rec.headers['x-service-signature-version']).toBe('v2');
    expect(rec.headers['x-service-signatures']).toBe(
      `v2=${expectedServiceSignature(res.body.secret, rec.raw)},v1=${expectedServiceSignature(hook.secret, rec.raw)}`,
    );
  });
});
