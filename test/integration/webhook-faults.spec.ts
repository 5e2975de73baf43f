import { getQueueToken } from '@nestjs/bull';
import type { TestingModule } from '@nestjs/testing';
import type { Queue } from 'bull';
import { WebhookDrain } from '../../src/modules/webhooks/webhook-drain.service';
import { jobIdOf } from '../../src/modules/webhooks/webhook-outbox.service';
import { WEBHOOKS_QUEUE } from '../../src/modules/webhooks/webhooks.constants';
import { type TestApp, startTestApp } from '../support/app';
import { bearer, newAgent, newOrg, newProject, type TestOrg } from '../support/factories';
import { OffsetClock, Receiver, startTestWorker } from '../support/webhooks';

/**
 * Faults: Redis unreachable while issues are written, and a worker that dies in the middle of a
 * delivery. After recovery every delivery arrives at least once; none is lost.
 */
describe('webhook delivery under faults', () => {
  let t: TestApp;
  let org: TestOrg;
  let project: { id: string };
  let rx: Receiver;
  let agentKey: string;
  /** Closed at the end only: closing a second Nest application in this process mid-suite ends the shared pool. */
  const closeLater: Array<{ close(): Promise<void> }> = [];
  const stopProcessing = (w: TestingModule) => w.get<Queue>(getQueueToken(WEBHOOKS_QUEUE)).close();

  beforeAll(async () => {
    t = await startTestApp({ SERVICE_ALLOW_LOOPBACK_WEBHOOKS: '1' });
    org = await newOrg(t);
    project = await newProject(t, org);
    agentKey = (await newAgent(t, org, { role: 'admin' })).key;
    rx = await new Receiver().start();
  });
  afterAll(async () => {
    for (const c of closeLater.reverse()) await c.close().catch(() => undefined);
    await rx?.stop();
    await t?.close();
  });

  const hookTo = async (path: string) =>
    (
      await org.owner.http
        .post(`/api/webhooks?orgId=${org.id}`)
        .send({ url: rx.url(path), events: ['issue.created'] })
        .expect(201)
    ).body.webhook.id as string;
  const pendingOf = (hookId: string) =>
    t.db.query(`SELECT id, attempts FROM webhook_deliveries WHERE org_id = $1 AND webhook_id = $2 AND status = 'pending'`, [org.id, hookId]);

  it('Redis down while issues are written: the rows wait in PostgreSQL and the drain delivers every one once Redis is back', async () => {
    const hookId = await hookTo('/redis-down/');
    // a second API process whose Redis is unreachable (port 1): issue writes still commit
    const dead = await startTestApp({ SERVICE_ALLOW_LOOPBACK_WEBHOOKS: '1', REDIS_URL: 'redis://127.0.0.1:1/14' });
    closeLater.push(dead);
    const ids: string[] = [];
    const api = bearer(dead, agentKey);
    for (let i = 0; i < 5; i++)
      ids.push(
        (
          await api
            .post(`/api/orgs/${org.id}/issues`)
            .send({ projectId: project.id, title: `while redis is down ${i}` })
            .expect(201)
        ).body.issue.id,
      );
    await new Promise((r) => setTimeout(r, 2500)); // the after-commit enqueue gives up after 2 s
    const pending = await pendingOf(hookId);
    expect(pending).toHaveLength(5);
    const queue: Queue = t.app.get(getQueueToken(WEBHOOKS_QUEUE));
    for (const p of pending) expect(await queue.getJob(jobIdOf({ orgId: org.id, id: p.id, attempts: 0 }))).toBeNull();
    expect(rx.on('/redis-down/')).toHaveLength(0);

    const worker = await startTestWorker(t.config);
    closeLater.push(worker);
    expect(await worker.get(WebhookDrain).drainPending()).toBeGreaterThanOrEqual(5);
    for (const id of ids) await rx.waitFor((r) => r.path.startsWith('/redis-down/') && r.text.includes(id));
    for (let i = 0; i < 100 && (await pendingOf(hookId)).length; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await pendingOf(hookId)).toHaveLength(0);
    await stopProcessing(worker);
  });

  it('a worker stopped in the middle of a delivery: the delivery is completed by the next worker', async () => {
    rx.mode('/crash/', 'stall');
    const hookId = await hookTo('/crash/');
    const first: TestingModule = await startTestWorker(t.config, { timing: { attemptTimeoutMs: 20_000 } });
    closeLater.push(first);
    const issue = (await org.owner.http.post(`/api/orgs/${org.id}/issues`).send({ projectId: project.id, title: 'crash mid-delivery' }).expect(201)).body.issue;
    await rx.waitFor((r) => r.path.startsWith('/crash/') && r.text.includes(issue.id)); // the first worker is inside the request
    rx.mode('/crash/', 'ok');
    const stopping = stopProcessing(first); // the worker's queue goes away while the job is active
    rx.releaseStalled(); // and its connection dies with it
    await stopping;
    const second = await startTestWorker(t.config);
    closeLater.push(second);
    {
      const drain = second.get(WebhookDrain);
      const arrived = () => rx.on('/crash/').filter((r) => r.text.includes(issue.id));
      for (let i = 0; i < 100 && arrived().length < 2; i++) {
        await drain.drainPending(); // what the 30-second cron does
        await new Promise((r) => setTimeout(r, 100));
      }
      const ok = arrived();
      expect(ok.length).toBeGreaterThanOrEqual(2);
      expect(ok[1].headers['x-service-delivery-id']).toBe(ok[0].headers['x-service-delivery-id']);
      const status = async () => (await t.db.query(`SELECT status FROM webhook_deliveries WHERE org_id = $1 AND webhook_id = $2`, [org.id, hookId]))[0].status;
      for (let i = 0; i < 100 && (await status()) !== 'delivered'; i++) await new Promise((r) => setTimeout(r, 50));
      expect(await status()).toBe('delivered');
      await stopProcessing(second);
    }
  });

  it('a worker killed after claiming a delivery (lease held, job gone): the drain waits for the lease to expire, then delivers', async () => {
    const hookId = await hookTo('/killed/');
    const queue: Queue = t.app.get(getQueueToken(WEBHOOKS_QUEUE));
    const issue = (await org.owner.http.post(`/api/orgs/${org.id}/issues`).send({ projectId: project.id, title: 'killed worker' }).expect(201)).body.issue;
    const [row] = await t.db.query(`SELECT id FROM webhook_deliveries WHERE org_id = $1 AND webhook_id = $2`, [org.id, hookId]);
    for (let i = 0; i < 40 && !(await queue.getJob(jobIdOf({ orgId: org.id, id: row.id, attempts: 0 }))); i++) await new Promise((r) => setTimeout(r, 50));
    const job = await queue.getJob(jobIdOf({ orgId: org.id, id: row.id, attempts: 0 }));
    await job?.remove(); // the dead worker's job is gone with it
    await t.db.query(`UPDATE webhook_deliveries SET locked_until = now() + interval '60 seconds' WHERE org_id = $1 AND id = $2`, [org.id, row.id]);

    const clock = new OffsetClock();
    const worker = await startTestWorker(t.config, { clock });
    closeLater.push(worker);
    {
      const drain = worker.get(WebhookDrain);
      await drain.drainPending();
      await new Promise((r) => setTimeout(r, 300));
      expect(rx.on('/killed/')).toHaveLength(0); // the lease still holds
      clock.offsetMs = 61_000; // the lease expired
      expect(await drain.drainPending()).toBeGreaterThanOrEqual(1);
      await rx.waitFor((r) => r.path.startsWith('/killed/') && r.text.includes(issue.id));
    }
  });
});
