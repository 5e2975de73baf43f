import { randomUUID } from 'node:crypto';
import { SchedulerRegistry } from '@nestjs/schedule';
import type { TestingModule } from '@nestjs/testing';
import { EgressClient } from '../../src/common/egress/egress-client';
import { WebhookDeliverer } from '../../src/modules/webhooks/webhook-deliverer.service';
import { WebhookMaintenanceProcessor } from '../../src/modules/webhooks/webhook-maintenance.processor';
import { UnreadableSecretError, WebhookSecrets, signingKeyOf } from '../../src/modules/webhooks/webhook-secrets';
import { type TestApp, startTestApp } from '../support/app';
import { newOrg, type TestOrg } from '../support/factories';
import { expectedServiceSignature, insertWebhookRow, Receiver, startTestWorker } from '../support/webhooks';

/**
 * Webhook hardening against the real API, the real worker module (in-process) and a local
 * receiver: per-organization cap setting, destination ports at delivery time, secrets bound to
 * their row (copies do not open; values sealed before the binding keep working and are re-sealed
 * by the maintenance job), the lease token fencing an attempt's outcome, and history retention.
 */
describe('webhook hardening (API + worker + local receiver)', () => {
  let t: TestApp;
  let worker: TestingModule;
  let rx: Receiver;
  const resolved: string[] = [];
  const DAY = 24 * 3600_000;

  beforeAll(async () => {
    t = await startTestApp({ SERVICE_ALLOW_LOOPBACK_WEBHOOKS: '1', WEBHOOKS_PER_ORG_MAX: '3' });
    // every name resolves to a private address (refused at once: jobs other test files left on the shared queue never reach the network);
    // the names asked for are recorded
    const egress = EgressClient.create({ allowLoopback: true, resolver: async (h) => (resolved.push(h), [{ address: '10.0.0.1', family: 4 }]) });
    // retention settings other than the defaults: the job must read them from the configuration
    worker = await startTestWorker({ ...t.config, webhookDeliveryRetentionDays: 10, webhookPayloadRetentionDays: 3 }, { egress });
    // no cron (drain, sweep, hourly maintenance) runs behind the tests' backs: every attempt and run here is one the test starts
    for (const job of worker.get(SchedulerRegistry).getCronJobs().values()) void job.stop();
    rx = await new Receiver().start();
  });
  afterAll(async () => {
    await worker?.close();
    await rx?.stop();
    await t?.close();
  });

  const createHook = async (org: TestOrg, body: Record<string, unknown>) => {
    const res = await org.owner.http.post(`/api/webhooks?orgId=${org.id}`).send(body).expect(201);
    return { id: res.body.webhook.id as string, secret: res.body.secret as string };
  };
  const ping = async (org: TestOrg, hookId: string) => (await org.owner.http.post(`/api/webhooks/${hookId}/test`).send({}).expect(202)).body.delivery;
  const deliveryRow = async (orgId: string, id: string) =>
    (
      await t.db.query(
        'SELECT status, status_code, error_code, attempts, body, lease_token, locked_until FROM webhook_deliveries WHERE org_id = $1 AND id = $2',
        [orgId, id],
      )
    )[0];
  const settled = async (orgId: string, id: string, timeoutMs = 20_000) => {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const row = await deliveryRow(orgId, id);
      if (row && row.status !== 'pending') return row;
      if (Date.now() > end) throw new Error(`delivery ${id} never settled: ${JSON.stringify(row)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const currentVersion = async (orgId: string, hookId: string) =>
    (await t.db.query('SELECT current_version_id AS id FROM webhooks WHERE org_id = $1 AND id = $2', [orgId, hookId]))[0].id as string;

  it('WEBHOOKS_PER_ORG_MAX is read from the configuration (here 3): the 4th creation is 422', async () => {
    const org = await newOrg(t);
    for (let i = 0; i < 3; i++) await createHook(org, { url: `https://hooks.example.com/${i}`, events: [] });
    const res = await org.owner.http.post(`/api/webhooks?orgId=${org.id}`).send({ url: 'https://hooks.example.com/4', events: [] }).expect(422);
    expect(res.body).toMatchObject({ code: 'webhook_limit_reached', limit: 3, usage: 3 });
  });

  describe('destination ports at delivery time', () => {
    it('a destination stored before the port rule (here :6379) is refused by the egress layer: failed / invalid_url, nothing resolved or sent', async () => {
      const org = await newOrg(t);
      const host = `ports-${randomUUID().slice(0, 8)}.example.com`;
      for (const url of [`https://${host}:6379/in`, `https://${host}:22/in`]) {
        const hookId = await insertWebhookRow(t, org.id, { url });
        const d = await ping(org, hookId);
        expect(await settled(org.id, d.id)).toMatchObject({ status: 'failed', error_code: 'invalid_url', status_code: null, attempts: 1 });
      }
      expect(resolved).not.toContain(host);
      // the same host on an allowed port gets as far as DNS (and is refused as a private address, retried, then retry_pending)
      const d = await ping(org, await insertWebhookRow(t, org.id, { url: `https://${host}:8443/in` }));
      expect(await settled(org.id, d.id)).toMatchObject({ status: 'retry_pending', error_code: 'blocked_address', attempts: 3 });
      expect(resolved).toContain(host);
    });

    it('loopback receivers on the ports listen(0) hands out keep working', async () => {
      const org = await newOrg(t);
      const hook = await createHook(org, { url: rx.url('/port-ok/'), events: [] });
      const d = await ping(org, hook.id);
      await rx.waitFor((r) => r.path.startsWith('/port-ok/') && r.headers['x-service-delivery-id'] === d.delivery_id);
      expect(await settled(org.id, d.id)).toMatchObject({ status: 'delivered' });
    });
  });

  describe('secrets bound to their row', () => {
    it('a sealed bearer token or signing key copied to another webhook does not open: the delivery fails with secret_unreadable, a PATCH is 409, never a 500', async () => {
      const org = await newOrg(t);
      const a = await createHook(org, { url: rx.url('/aad-a/'), events: [], auth: { type: 'bearer', secret: 'token-of-a' } });
      const b = await createHook(org, { url: rx.url('/aad-b/'), events: [], auth: { type: 'bearer', secret: 'token-of-b' } });
      const [va, vb] = [await currentVersion(org.id, a.id), await currentVersion(org.id, b.id)];
      const value = async (table: string, col: string, where: string, args: unknown[]) =>
        (await t.db.query(`SELECT ${col} AS v FROM ${table} WHERE ${where}`, args))[0].v as string;
      const bearerOfA = await value('webhook_versions', 'bearer_enc', 'org_id = $1 AND id = $2', [org.id, va]);
      expect(bearerOfA).toMatch(/^v2\./);
      // an attacker with write access to the table moves A's token to B (whose URL they control)
      await t.db.query('UPDATE webhook_versions SET bearer_enc = $3 WHERE org_id = $1 AND id = $2', [org.id, vb, bearerOfA]);
      const d1 = await ping(org, b.id);
      expect(await settled(org.id, d1.id)).toMatchObject({ status: 'failed', error_code: 'secret_unreadable', status_code: null });
      const hist = (await org.owner.http.get(`/api/webhooks/${b.id}/deliveries`).expect(200)).body.deliveries;
      expect(hist[0]).toMatchObject({ id: d1.id, status: 'failed', error_code: 'secret_unreadable' });
      // relabelled as a value sealed without binding, it does not open either
      await t.db.query('UPDATE webhook_versions SET bearer_enc = $3 WHERE org_id = $1 AND id = $2', [org.id, vb, bearerOfA.replace(/^v2\./, 'v1.')]);
      const d2 = await ping(org, b.id);
      expect(await settled(org.id, d2.id)).toMatchObject({ status: 'failed', error_code: 'secret_unreadable' });
      // a PATCH that has to carry the token over cannot: 409 with a code, not a 500
      const patch = await org.owner.http
        .patch(`/api/webhooks/${b.id}`)
        .send({ url: rx.url('/aad-b2/') })
        .expect(409);
      expect(patch.body.code).toBe('webhook_secrets_unreadable');
      // sending the secrets again repairs it
      await org.owner.http
        .patch(`/api/webhooks/${b.id}`)
        .send({ url: rx.url('/aad-b2/'), auth: { type: 'bearer', secret: 'token-of-b-again' } })
        .expect(200);
      const d3 = await ping(org, b.id);
      const rec = await rx.waitFor((r) => r.headers['x-service-delivery-id'] === d3.delivery_id);
      expect(rec.headers.authorization).toBe('Bearer token-of-b-again');
      expect(rec.headers['x-service-signature']).toBe(expectedServiceSignature(b.secret, rec.raw));
      expect(rx.on('/aad-b/')).toHaveLength(0);

      // A's signing key copied over the key of C (never delivered yet): C's deliveries fail instead of being signed with A's key
      const c = await createHook(org, { url: rx.url('/aad-c/'), events: [] });
      const keyOfA = await value('webhook_signing_keys', 'key_enc', 'org_id = $1 AND webhook_id = $2 AND version = 1', [org.id, a.id]);
      await t.db.query('UPDATE webhook_signing_keys SET key_enc = $3 WHERE org_id = $1 AND webhook_id = $2 AND version = 1', [org.id, c.id, keyOfA]);
      const d4 = await ping(org, c.id);
      expect(await settled(org.id, d4.id)).toMatchObject({ status: 'failed', error_code: 'secret_unreadable' });
      expect(rx.on('/aad-c/')).toHaveLength(0);
      // A itself still works
      const d5 = await ping(org, a.id);
      const recA = await rx.waitFor((r) => r.headers['x-service-delivery-id'] === d5.delivery_id);
      expect(recA.headers.authorization).toBe('Bearer token-of-a');
    });

    it('values sealed before the binding (v1) keep working and are re-sealed by the maintenance job; a value that does not open is left alone', async () => {
      const org = await newOrg(t);
      const legacy = await insertWebhookRow(t, org.id, { url: rx.url('/legacy/'), secret: 'legacy-secret', legacy: true });
      const values = async () =>
        (
          await t.db.query(
            `SELECT v.url_enc, k.key_enc FROM webhooks w JOIN webhook_versions v ON v.org_id = w.org_id AND v.id = w.current_version_id
               JOIN webhook_signing_keys k ON k.org_id = w.org_id AND k.webhook_id = w.id WHERE w.org_id = $1 AND w.id = $2`,
            [org.id, legacy],
          )
        )[0];
      const before = await values();
      expect(before.url_enc).toMatch(/^v1\./);
      expect(before.key_enc).toMatch(/^v1\./);
      const d1 = await ping(org, legacy);
      const rec1 = await rx.waitFor((r) => r.headers['x-service-delivery-id'] === d1.delivery_id);
      expect(rec1.headers['x-service-signature']).toBe(expectedServiceSignature('legacy-secret', rec1.raw));

      // another row whose unbound value was sealed under another key
      const broken = await insertWebhookRow(t, org.id, { url: rx.url('/broken/'), legacy: true });
      await t.db.query(`UPDATE webhook_versions SET url_enc = 'v1.0000000000000000.AAAA.AAAA.AAAA' WHERE org_id = $1 AND webhook_id = $2`, [org.id, broken]);

      const result = await worker.get(WebhookMaintenanceProcessor).run(new Date(), { batchSize: 1 });
      expect(result.resealed).toBeGreaterThanOrEqual(2); // the version and the signing key
      expect(result.unreadable).toBeGreaterThanOrEqual(1);
      const after = await values();
      expect(after.url_enc).toMatch(/^v2\./);
      expect(after.key_enc).toMatch(/^v2\./);
      expect((await t.db.query('SELECT url_enc FROM webhook_versions WHERE org_id = $1 AND webhook_id = $2', [org.id, broken]))[0].url_enc).toBe(
        'v1.0000000000000000.AAAA.AAAA.AAAA',
      );
      // the re-sealed values open with their binding to the same plaintexts, and deliveries go on
      const secrets = t.app.get(WebhookSecrets);
      const versionId = await currentVersion(org.id, legacy);
      expect(secrets.open(after.url_enc, { kind: 'version', orgId: org.id, webhookId: legacy, versionId, field: 'url' })).toBe(rx.url('/legacy/'));
      expect(secrets.open(after.key_enc, { kind: 'signing-key', orgId: org.id, webhookId: legacy, version: 1 })).toBe(signingKeyOf('legacy-secret'));
      expect(() => secrets.open(after.url_enc, { kind: 'version', orgId: org.id, webhookId: broken, versionId, field: 'url' })).toThrow(UnreadableSecretError);
      const d2 = await ping(org, legacy);
      const rec2 = await rx.waitFor((r) => r.headers['x-service-delivery-id'] === d2.delivery_id);
      expect(rec2.headers['x-service-signature']).toBe(expectedServiceSignature('legacy-secret', rec2.raw));
      // a second run finds nothing of this organization to re-seal
      await worker.get(WebhookMaintenanceProcessor).run(new Date());
      expect(await values()).toEqual(after);
    });
  });

  it('an attempt whose lease expired and was claimed again records nothing: the newer attempt keeps the row (lease token)', async () => {
    const org = await newOrg(t);
    rx.mode('/lease/', 'stall');
    const hookId = await insertWebhookRow(t, org.id, { url: rx.url('/lease/'), enabled: true });
    const versionId = await currentVersion(org.id, hookId);
    const id = randomUUID();
    // a delivery row of its own (not enqueued: the two attempts below are the only ones)
    await t.db.query(
      `INSERT INTO webhook_deliveries (org_id, id, webhook_id, version_id, signing_versions, delivery_id, event, schema_version, body)
       VALUES ($1, $2, $3, $4, '{1}', $5, 'ping', 2, '{"event":"ping"}')`,
      [org.id, id, hookId, versionId, randomUUID()],
    );
    const deliverer = worker.get(WebhookDeliverer);
    const ref = { orgId: org.id, id, attempts: 0 };
    const first = deliverer.attempt(ref); // worker A: claims, sends, the receiver stalls
    await rx.waitFor((r) => r.path.startsWith('/lease/'));
    const leaseA = (await deliveryRow(org.id, id)).lease_token;
    expect(leaseA).toEqual(expect.any(String));
    // A's lease runs out; worker B claims the row and delivers
    await t.db.query(`UPDATE webhook_deliveries SET locked_until = now() - interval '1 second' WHERE org_id = $1 AND id = $2`, [org.id, id]);
    rx.mode('/lease/', 'ok');
    expect(await deliverer.attempt(ref)).toBe('delivered');
    expect(await deliveryRow(org.id, id)).toMatchObject({ status: 'delivered', status_code: 200, error_code: null, attempts: 1, lease_token: null });
    // A's connection dies now: its network_error must not overwrite B's result nor count a failure
    rx.releaseStalled();
    expect(await first).toBe('lease_lost');
    expect(await deliveryRow(org.id, id)).toMatchObject({ status: 'delivered', status_code: 200, error_code: null, attempts: 1 });
    const [w] = await t.db.query('SELECT consecutive_failures, last_failure_at FROM webhooks WHERE org_id = $1 AND id = $2', [org.id, hookId]);
    expect(w).toEqual({ consecutive_failures: 0, last_failure_at: null });
    await new Promise((r) => setTimeout(r, 500)); // longer than the first injected retry delay: A scheduled no retry
    expect(rx.on('/lease/')).toHaveLength(2);
  });

  it('a batch (attemptMany) is fenced row by row: the row whose lease was lost keeps the newer attempt, the others of the batch are recorded', async () => {
    const org = await newOrg(t);
    rx.mode('/lease-batch-a/', 'stall');
    rx.mode('/lease-batch-b/', 'gone');
    const hookA = await insertWebhookRow(t, org.id, { url: rx.url('/lease-batch-a/'), enabled: true });
    const hookB = await insertWebhookRow(t, org.id, { url: rx.url('/lease-batch-b/'), enabled: true });
    const row = async (hookId: string) => {
      const id = randomUUID();
      await t.db.query(
        `INSERT INTO webhook_deliveries (org_id, id, webhook_id, version_id, signing_versions, delivery_id, event, schema_version, body)
         VALUES ($1, $2, $3, $4, '{1}', $5, 'ping', 2, '{"event":"ping"}')`,
        [org.id, id, hookId, await currentVersion(org.id, hookId), randomUUID()],
      );
      return { orgId: org.id, id, attempts: 0 };
    };
    const [a, b] = [await row(hookA), await row(hookB)];
    const deliverer = worker.get(WebhookDeliverer);
    const batch = deliverer.attemptMany([a, b]); // worker A: claims both under one token; a stalls, b is refused (410)
    await rx.waitFor((r) => r.path.startsWith('/lease-batch-a/'));
    const token = (await deliveryRow(org.id, a.id)).lease_token;
    expect(token).toEqual(expect.any(String));
    // a's lease runs out; worker B claims a alone and delivers it
    await t.db.query(`UPDATE webhook_deliveries SET locked_until = now() - interval '1 second' WHERE org_id = $1 AND id = $2`, [org.id, a.id]);
    rx.mode('/lease-batch-a/', 'ok');
    expect(await deliverer.attempt(a)).toBe('delivered');
    rx.releaseStalled(); // worker A's request for a dies now: its network_error must not be recorded
    expect([...(await batch)].sort()).toEqual(['failed', 'lease_lost']);
    expect(await deliveryRow(org.id, a.id)).toMatchObject({ status: 'delivered', status_code: 200, error_code: null, attempts: 1, lease_token: null });
    expect(await deliveryRow(org.id, b.id)).toMatchObject({ status: 'failed', status_code: 410, error_code: 'http_error', attempts: 1, lease_token: null });
    const counters = async (hookId: string) =>
      (await t.db.query('SELECT consecutive_failures, last_failure_at IS NOT NULL AS failed FROM webhooks WHERE org_id = $1 AND id = $2', [org.id, hookId]))[0];
    expect(await counters(hookA)).toEqual({ consecutive_failures: 0, failed: false }); // the lost attempt counted no failure
    expect(await counters(hookB)).toEqual({ consecutive_failures: 1, failed: true });
    await new Promise((r) => setTimeout(r, 500)); // longer than the first injected retry delay: A scheduled no retry
    expect(rx.on('/lease-batch-a/')).toHaveLength(2);
  });

  describe('history retention (maintenance job)', () => {
    it('deletes finished deliveries older than WEBHOOK_DELIVERY_RETENTION_DAYS and drops payloads delivered more than WEBHOOK_PAYLOAD_RETENTION_DAYS ago, in batches', async () => {
      const org = await newOrg(t);
      const hook = await createHook(org, { url: rx.url('/retention/'), events: [] });
      const versionId = await currentVersion(org.id, hook.id);
      const now = Date.now();
      const rows: Record<string, { status: string; ageDays: number; id: string }> = {
        oldDelivered: { status: 'delivered', ageDays: 11, id: randomUUID() },
        oldFailed: { status: 'failed', ageDays: 11, id: randomUUID() },
        oldRetryPending: { status: 'retry_pending', ageDays: 11, id: randomUUID() },
        staleDelivered: { status: 'delivered', ageDays: 9, id: randomUUID() },
        deliveredLastWeek: { status: 'delivered', ageDays: 4, id: randomUUID() },
        failedLastWeek: { status: 'failed', ageDays: 4, id: randomUUID() },
        recentDelivered: { status: 'delivered', ageDays: 2, id: randomUUID() },
      };
      for (const r of Object.values(rows)) {
        const at = new Date(now - r.ageDays * DAY);
        await t.db.query(
          `INSERT INTO webhook_deliveries (org_id, id, webhook_id, version_id, signing_versions, delivery_id, event, schema_version, body, status, attempts,
                                           status_code, error_code, next_retry_at, delivered_at, last_attempt_at, created_at)
           VALUES ($1, $2, $3, $4, '{1}', $5, 'ping', 2, '{"event":"ping","n":1}', $6, 1, $7, $8, $9, $10, $11, $11)`,
          [
            org.id,
            r.id,
            hook.id,
            versionId,
            randomUUID(),
            r.status,
            r.status === 'delivered' ? 200 : 500,
            r.status === 'delivered' ? null : 'http_error',
            r.status === 'retry_pending' ? new Date(now + DAY) : null,
            r.status === 'delivered' ? at : null,
            at,
          ],
        );
      }
      const result = await worker.get(WebhookMaintenanceProcessor).run(new Date(now), { batchSize: 1 });
      expect(result.deleted).toBeGreaterThanOrEqual(2);
      expect(result.payloadsDropped).toBeGreaterThanOrEqual(2);
      const left = new Map<string, { status: string; has_body: boolean }>(
        (await t.db.query('SELECT id, status, body IS NOT NULL AS has_body FROM webhook_deliveries WHERE org_id = $1', [org.id])).map(
          (r: { id: string; status: string; has_body: boolean }) => [r.id, r],
        ),
      );
      expect(left.has(rows.oldDelivered.id)).toBe(false);
      expect(left.has(rows.oldFailed.id)).toBe(false);
      expect(left.get(rows.oldRetryPending.id)).toEqual(expect.objectContaining({ status: 'retry_pending', has_body: true })); // unfinished: kept
      expect(left.get(rows.staleDelivered.id)).toEqual(expect.objectContaining({ has_body: false }));
      expect(left.get(rows.deliveredLastWeek.id)).toEqual(expect.objectContaining({ has_body: false }));
      expect(left.get(rows.failedLastWeek.id)).toEqual(expect.objectContaining({ has_body: true })); // failed: kept for redelivery
      expect(left.get(rows.recentDelivered.id)).toEqual(expect.objectContaining({ has_body: true }));

      // what the routes answer
      const hist = (await org.owner.http.get(`/api/webhooks/${hook.id}/deliveries`).expect(200)).body.deliveries as Array<{
        id: string;
        payload_retained: boolean;
      }>;
      expect(Object.fromEntries(hist.map((d) => [d.id, d.payload_retained]))).toEqual({
        [rows.oldRetryPending.id]: true,
        [rows.staleDelivered.id]: false,
        [rows.deliveredLastWeek.id]: false,
        [rows.failedLastWeek.id]: true,
        [rows.recentDelivered.id]: true,
      });
      const redeliver = (id: string) => org.owner.http.post(`/api/webhooks/${hook.id}/redeliver/${id}`).send({});
      expect((await redeliver(rows.deliveredLastWeek.id).expect(409)).body.code).toBe('delivery_payload_pruned');
      await redeliver(rows.oldDelivered.id).expect(404);
      await redeliver(rows.failedLastWeek.id).expect(202);
      await redeliver(rows.recentDelivered.id).expect(202);

      // a second run has nothing left to do for these rows
      await worker.get(WebhookMaintenanceProcessor).run(new Date(now));
      expect((await t.db.query('SELECT count(*)::int AS n FROM webhook_deliveries WHERE org_id = $1', [org.id]))[0].n).toBe(7);
    });

    it('the batch statements find their rows through the partial indexes, not by scanning the table', async () => {
      const plans: string[] = [];
      await t.db.transaction(async (m) => {
        await m.query('SET LOCAL enable_seqscan = off');
        for (const [sql, args] of [
          [
            `EXPLAIN SELECT org_id, id FROM webhook_deliveries WHERE status IN ('delivered', 'failed') AND created_at < $1 ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
            [new Date(), 1000],
          ],
          [
            `EXPLAIN SELECT org_id, id FROM webhook_deliveries WHERE status = 'delivered' AND body IS NOT NULL AND delivered_at < $1 ORDER BY delivered_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
            [new Date(), 1000],
          ],
        ] as Array<[string, unknown[]]>)
          plans.push((await m.query(sql, args)).map((r: Record<string, string>) => r['QUERY PLAN']).join('\n'));
      });
      // an index scan or a bitmap scan of the partial index, depending on the data the other test files left; never the table
      expect(plans[0]).toMatch(/(Index Scan using|Bitmap Index Scan on) webhook_deliveries_expiry_idx/);
      expect(plans[1]).toMatch(/(Index Scan using|Bitmap Index Scan on) webhook_deliveries_payload_idx/);
      for (const plan of plans) expect(plan).not.toMatch(/Seq Scan/);
    });
  });
});
