import { randomBytes } from 'node:crypto';
import { type TestApp, startTestApp } from '../support/app';
import { addMember, bearer, newAgent, newOrg, newUser, randomId, type TestOrg, type TestUser } from '../support/factories';

/**
 * `/api/webhooks` over HTTP (loopback setting off, as in production): access matrix, creation
 * and URL rules, list redaction, PATCH rules, Standard Webhooks secrets, history, redelivery and
 * ping routes. Delivery itself is covered by test/integration/webhook-delivery.spec.ts.
 */
describe('webhooks (e2e)', () => {
  let t: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  let admin: TestUser;
  let member: TestUser;
  let guest: TestUser;
  let agentAdmin: string;
  let agentMember: string;
  const whsec = (n: number) => `whsec_${randomBytes(n).toString('base64')}`;

  beforeAll(async () => {
    t = await startTestApp({ SERVICE_ALLOW_LOOPBACK_WEBHOOKS: '0' });
    org = await newOrg(t);
    other = await newOrg(t);
    [admin, member, guest] = [await newUser(t, 'admin'), await newUser(t, 'member'), await newUser(t, 'guest')];
    await addMember(t, org, admin, 'admin');
    await addMember(t, org, member, 'member');
    await addMember(t, org, guest, 'guest');
    agentAdmin = (await newAgent(t, org, { role: 'admin' })).key;
    agentMember = (await newAgent(t, org, { role: 'member' })).key;
  });
  afterAll(async () => {
    await t?.close();
  });

  const create = (body: Record<string, unknown>, o: TestOrg = org) => o.owner.http.post(`/api/webhooks?orgId=${o.id}`).send(body);
  const hook = async (body: Record<string, unknown> = {}, o: TestOrg = org) => {
    const res = await create({ url: 'https://hooks.example.com/in/path?token=q', events: ['issue.created'], ...body }, o).expect(201);
    return { id: res.body.webhook.id as string, secret: res.body.secret as string, body: res.body };
  };
  const row = async (id: string) => {
    const res = await org.owner.http.get(`/api/webhooks?orgId=${org.id}`).expect(200);
    return res.body.webhooks.find((w: { id: string }) => w.id === id);
  };
  const versions = async (id: string) =>
    Number((await t.db.query('SELECT count(*) AS n FROM webhook_versions WHERE org_id = $1 AND webhook_id = $2', [org.id, id]))[0].n);

  describe('access', () => {
    it('401 without credentials on every route', async () => {
      const h = await hook();
      const anon = t.http();
      await anon.get(`/api/webhooks?orgId=${org.id}`).expect(401);
      await anon.post(`/api/webhooks?orgId=${org.id}`).send({ url: 'https://a.example.com' }).expect(401);
      await anon.patch(`/api/webhooks/${h.id}`).send({ enabled: false }).expect(401);
      await anon.delete(`/api/webhooks/${h.id}`).expect(401);
      await anon.get(`/api/webhooks/${h.id}/deliveries`).expect(401);
      await anon.post(`/api/webhooks/${h.id}/redeliver/${randomId()}`).send({}).expect(401);
      await anon.post(`/api/webhooks/${h.id}/test`).send({}).expect(401);
    });

    it('owners, admins and admin agents manage webhooks; members, guests and member agents 403; other organizations 404', async () => {
      const h = await hook();
      const ok: Array<[string, (p: string) => any, (p: string) => any, (p: string) => any]> = [
        ['admin', (p) => admin.http.get(p), (p) => admin.http.post(p), (p) => admin.http.patch(p)],
        ['agent admin', (p) => bearer(t, agentAdmin).get(p), (p) => bearer(t, agentAdmin).post(p), (p) => bearer(t, agentAdmin).patch(p)],
      ];
      for (const [, get, post, patch] of ok) {
        await get(`/api/webhooks?orgId=${org.id}`).expect(200);
        const c = await post(`/api/webhooks?orgId=${org.id}`)
          .send({ url: 'https://hooks.example.com/x', events: ['issue.updated'] })
          .expect(201);
        await patch(`/api/webhooks/${c.body.webhook.id}`).send({ enabled: false }).expect(200);
        await get(`/api/webhooks/${c.body.webhook.id}/deliveries`).expect(200);
        await post(`/api/webhooks/${c.body.webhook.id}/test`).send({}).expect(202);
      }
      const forbidden: Array<[string, any]> = [
        ['member', member.http],
        ['guest', guest.http],
        ['agent member', null],
      ];
      for (const [who, http] of forbidden) {
        const c = http ?? null;
        const get = (p: string) => (c ? c.get(p) : bearer(t, agentMember).get(p));
        const post = (p: string) => (c ? c.post(p) : bearer(t, agentMember).post(p));
        const patch = (p: string) => (c ? c.patch(p) : bearer(t, agentMember).patch(p));
        const del = (p: string) => (c ? c.delete(p) : bearer(t, agentMember).delete(p));
        for (const res of [
          await get(`/api/webhooks?orgId=${org.id}`),
          await post(`/api/webhooks?orgId=${org.id}`).send({ url: 'https://hooks.example.com/m', events: ['issue.created'] }),
          await patch(`/api/webhooks/${h.id}`).send({ enabled: false }),
          await del(`/api/webhooks/${h.id}`),
          await get(`/api/webhooks/${h.id}/deliveries`),
          await post(`/api/webhooks/${h.id}/redeliver/${randomId()}`).send({}),
          await post(`/api/webhooks/${h.id}/test`).send({}),
        ]) {
          expect([who, res.status]).toEqual([who, 403]);
          expect(res.body.code).toBe('forbidden');
        }
      }
      // the other organization's owner: everything about this organization's webhooks is 404
      const o = other.owner.http;
      for (const res of [
        await o.get(`/api/webhooks?orgId=${org.id}`),
        await o.post(`/api/webhooks?orgId=${org.id}`).send({ url: 'https://hooks.example.com/m' }),
        await o.patch(`/api/webhooks/${h.id}`).send({ enabled: false }),
        await o.delete(`/api/webhooks/${h.id}`),
        await o.get(`/api/webhooks/${h.id}/deliveries`),
        await o.post(`/api/webhooks/${h.id}/redeliver/${randomId()}`).send({}),
        await o.post(`/api/webhooks/${h.id}/test`).send({}),
      ]) {
        expect(res.status).toBe(404);
      }
      expect((await row(h.id)).enabled).toBe(true);
    });

    it('unknown or malformed ids are 404; a missing orgId is 400', async () => {
      await org.owner.http.patch(`/api/webhooks/${randomId()}`).send({ enabled: true }).expect(404);
      await org.owner.http.patch('/api/webhooks/not-a-uuid').send({ enabled: true }).expect(404);
      await org.owner.http.get('/api/webhooks/not-a-uuid/deliveries').expect(404);
      await org.owner.http.post('/api/webhooks/x/redeliver/y').send({}).expect(404);
      const h = await hook();
      await org.owner.http.post(`/api/webhooks/${h.id}/redeliver/not-a-uuid`).send({}).expect(404);
      await org.owner.http.post(`/api/webhooks/${h.id}/redeliver/${randomId()}`).send({}).expect(404);
      await org.owner.http.get('/api/webhooks').expect(400);
    });
  });

  describe('create and list', () => {
    it('returns the secret once; lists are redacted to the origin and configured flags', async () => {
      const h = await hook({ auth: { type: 'bearer', secret: 'BEARER-TOKEN-VALUE' }, standard_webhooks: { enabled: true, secret: whsec(32) } });
      expect(h.secret).toMatch(/^whsvc_[A-Za-z0-9_-]{43}$/);
      expect(h.body.webhook).toMatchObject({
        destination_display: 'https://hooks.example.com',
        url: 'https://hooks.example.com',
        purpose: 'webhook',
        enabled: true,
        events: ['issue.created'],
      });
      const res = await org.owner.http.get(`/api/webhooks?orgId=${org.id}`).expect(200);
      const text = JSON.stringify(res.body);
      for (const s of [h.secret, 'BEARER-TOKEN-VALUE', '/in/path', 'token=q', 'whsec_']) expect(text).not.toContain(s);
      const r = await row(h.id);
      expect(r.auth).toEqual({ type: 'bearer', configured: true });
      expect(r.standard_webhooks).toEqual({ configured: true });
      expect(r.secret).toBeUndefined();
      const env = await org.owner.http.get(`/api/webhooks?orgId=${org.id}&shape=envelope`).expect(200);
      expect(env.body).toMatchObject({ resource: 'webhooks' });
    });

    it('purpose defaults to webhook; automation and both are accepted', async () => {
      for (const purpose of ['automation', 'both']) expect((await hook({ purpose })).body.webhook.purpose).toBe(purpose);
    });

    it('URL rules: HTTPS DNS hostnames only; IP literals in any notation, localhost, .local, single labels, credentials and loopback refused', async () => {
      const bad = [
        'http://hooks.example.com/x',
        'https://127.0.0.1/x',
        'https://127.1/x',
        'https://0x7f.1/x',
        'https://0177.0.0.1/x',
        'https://2130706433/x',
        'https://[::1]/x',
        'https://[::ffff:127.0.0.1]/x',
        'https://10.0.0.5/x',
        'https://localhost/x',
        'https://a.localhost/x',
        'https://nas.local/x',
        'https://intranet/x',
        'https://u:p@hooks.example.com/x',
        'http://127.0.0.1:8080/x',
        'http://localhost:8080/x',
        'ftp://hooks.example.com/x',
        'javascript:alert(1)',
        'not a url',
        'https://',
        '',
        'https://localhost../x',
        'https://nas.local../x',
        `https://${'a'.repeat(300)}.example.com/x`,
      ];
      for (const url of bad) {
        const res = await create({ url, events: ['issue.created'] });
        expect([url, res.status]).toEqual([url, 400]);
      }
      await create({ events: ['issue.created'] }).expect(400);
      await create({ url: 'https://hooks.example.com:8443/ok', events: ['issue.created'] }).expect(201);
    });

    it('malformed bodies are 400, never 500', async () => {
      const bodies = [
        { url: 123, events: ['issue.created'] },
        { url: 'https://x.example.com', events: 'issue.created' },
        { url: 'https://x.example.com', events: ['issue.deleted'] },
        { url: 'https://x.example.com', events: ['issue.created', 'issue.created'] },
        { url: 'https://x.example.com', events: ['issue.created'], auth: { type: 'magic' } },
        { url: 'https://x.example.com', events: ['issue.created'], auth: 'bearer' },
        { url: 'https://x.example.com', events: ['issue.created'], auth: { type: 'bearer' } },
        { url: 'https://x.example.com', events: ['issue.created'], auth: { type: 'bearer', secret: 'has space' } },
        { url: 'https://x.example.com', events: ['issue.created'], auth: { type: 'bearer', secret: 'line\r\nX-Evil: 1' } },
        { url: 'https://x.example.com', events: ['issue.created'], standard_webhooks: { secret: 123 } },
        { url: 'https://x.example.com', events: ['issue.created'], standard_webhooks: { enabled: 'yes', secret: whsec(32) } },
        { url: 'https://x.example.com', events: [], purpose: 'everything' },
        { url: 'https://x.example.com', enabled: 'true' },
      ];
      for (const b of bodies) {
        const res = await create(b);
        expect([b, res.status]).toEqual([b, 400]);
      }
    });

    it('Standard Webhooks secrets: whsec_ + canonical standard Base64 of 24..64 bytes', async () => {
      const b32 = randomBytes(32).toString('base64'); // 43 characters and one "="
      const last = b32[42];
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
      const nonZeroTail = alphabet[(alphabet.indexOf(last) & ~0xf) | 1]; // same bytes, non-zero unused bits
      const bad = [
        'whsec_!!!not-base64!!!',
        randomBytes(32).toString('base64'),
        'whsec_',
        `whsec_${b32.slice(0, -1)}`,
        `whsec_${b32.slice(0, 42)}${nonZeroTail}=`,
        `whsec_${Buffer.alloc(33, 0xfb).toString('base64url')}` /* base64url alphabet (- and _) */,
        whsec(23),
        whsec(65),
        `whsec_ ${b32}`,
        `WHSEC_${b32}`,
      ];
      for (const secret of bad) {
        const res = await create({ url: 'https://hooks.example.com/std', events: ['issue.created'], standard_webhooks: { enabled: true, secret } });
        expect([secret, res.status]).toEqual([secret, 400]);
      }
      for (const n of [24, 64])
        await create({ url: 'https://hooks.example.com/std', events: ['issue.created'], standard_webhooks: { enabled: true, secret: whsec(n) } }).expect(201);
      await create({ url: 'https://hooks.example.com/std', events: ['issue.created'], standard_webhooks: { enabled: false } }).expect(201);
    });
  });

  describe('PATCH', () => {
    it('preserves omitted fields and returns { webhook } with safe metadata', async () => {
      const h = await hook({
        events: ['issue.created', 'issue.updated'],
        purpose: 'both',
        auth: { type: 'bearer', secret: 'tok' },
        standard_webhooks: { enabled: true, secret: whsec(32) },
      });
      const res = await org.owner.http.patch(`/api/webhooks/${h.id}`).send({ enabled: false }).expect(200);
      expect(res.body.webhook).toMatchObject({
        enabled: false,
        events: ['issue.created', 'issue.updated'],
        purpose: 'both',
        destination_display: 'https://hooks.example.com',
        auth: { type: 'bearer', configured: true },
        standard_webhooks: { configured: true },
      });
      expect(res.body.secret).toBeUndefined();
      expect(JSON.stringify(res.body)).not.toContain('tok');
      expect(await versions(h.id)).toBe(1);
    });

    it('bearer: a blank secret keeps the token, a new one makes a new version, { type: "none" } clears it', async () => {
      const h = await hook({ auth: { type: 'bearer', secret: 'tok-1' } });
      await org.owner.http
        .patch(`/api/webhooks/${h.id}`)
        .send({ auth: { type: 'bearer', secret: '' } })
        .expect(200);
      await org.owner.http
        .patch(`/api/webhooks/${h.id}`)
        .send({ auth: { type: 'bearer' } })
        .expect(200);
      expect((await row(h.id)).auth).toEqual({ type: 'bearer', configured: true });
      expect(await versions(h.id)).toBe(1);
      await org.owner.http
        .patch(`/api/webhooks/${h.id}`)
        .send({ auth: { type: 'bearer', secret: 'tok-2' } })
        .expect(200);
      expect(await versions(h.id)).toBe(2);
      await org.owner.http
        .patch(`/api/webhooks/${h.id}`)
        .send({ auth: { type: 'none' } })
        .expect(200);
      expect((await row(h.id)).auth).toEqual({ type: 'none', configured: false });
      expect(await versions(h.id)).toBe(3);
      // a blank bearer secret with no stored token is refused
      await org.owner.http
        .patch(`/api/webhooks/${h.id}`)
        .send({ auth: { type: 'bearer', secret: ' ' } })
        .expect(400);
    });

    it('standard_webhooks: omit keeps, enabled+blank keeps, a valid secret replaces, enabled:false clears, invalid is 400', async () => {
      const h = await hook({ standard_webhooks: { enabled: true, secret: whsec(32) } });
      await org.owner.http
        .patch(`/api/webhooks/${h.id}`)
        .send({ events: ['issue.updated'] })
        .expect(200);
      await org.owner.http
        .patch(`/api/webhooks/${h.id}`)
        .send({ standard_webhooks: { enabled: true, secret: '' } })
        .expect(200);
      await org.owner.http
        .patch(`/api/webhooks/${h.id}`)
        .send({ standard_webhooks: { enabled: true } })
        .expect(200);
      expect((await row(h.id)).standard_webhooks).toEqual({ configured: true });
      expect(await versions(h.id)).toBe(1);
      await org.owner.http
        .patch(`/api/webhooks/${h.id}`)
        .send({ standard_webhooks: { enabled: true, secret: 'whsec_bad' } })
        .expect(400);
      await org.owner.http
        .patch(`/api/webhooks/${h.id}`)
        .send({ standard_webhooks: { enabled: true, secret: whsec(40) } })
        .expect(200);
      expect(await versions(h.id)).toBe(2);
      await org.owner.http
        .patch(`/api/webhooks/${h.id}`)
        .send({ standard_webhooks: { enabled: false } })
        .expect(200);
      expect((await row(h.id)).standard_webhooks).toEqual({ configured: false });
      expect(await versions(h.id)).toBe(3);
      await org.owner.http
        .patch(`/api/webhooks/${h.id}`)
        .send({ standard_webhooks: { enabled: true } })
        .expect(400);
    });

    it('url: same rules as create; a change makes a new version and a new display origin', async () => {
      const h = await hook();
      await org.owner.http.patch(`/api/webhooks/${h.id}`).send({ url: 'https://10.0.0.1/x' }).expect(400);
      await org.owner.http.patch(`/api/webhooks/${h.id}`).send({ url: 'https://hooks.example.com/in/path?token=q' }).expect(200);
      expect(await versions(h.id)).toBe(1); // unchanged URL
      const res = await org.owner.http.patch(`/api/webhooks/${h.id}`).send({ url: 'https://other.example.org/new' }).expect(200);
      expect(res.body.webhook.destination_display).toBe('https://other.example.org');
      expect(await versions(h.id)).toBe(2);
      for (const body of [{ events: ['nope'] }, { purpose: 'x' }, { enabled: 1 }, { rotate_secret: 'yes' }])
        await org.owner.http.patch(`/api/webhooks/${h.id}`).send(body).expect(400);
    });

    it('rotate_secret returns a new secret once', async () => {
      const h = await hook();
      const res = await org.owner.http.patch(`/api/webhooks/${h.id}`).send({ rotate_secret: true }).expect(200);
      expect(res.body.secret).toMatch(/^whsvc_/);
      expect(res.body.secret).not.toBe(h.secret);
    });
  });

  describe('destination ports and the per-organization cap', () => {
    it('ports: 80, 443 and 1024..65535 are accepted except internal service ports; others are 400 at creation and PATCH', async () => {
      for (const url of [
        'https://hooks.example.com:22/x',
        'https://hooks.example.com:6379/x',
        'https://hooks.example.com:5432/x',
        'https://hooks.example.com:2375/x',
        'https://hooks.example.com:10250/x',
        'https://hooks.example.com:1023/x',
        'https://hooks.example.com:0/x',
        'http://example.com:22/x',
      ]) {
        const res = await create({ url, events: ['issue.created'] });
        expect([url, res.status, res.body.code]).toEqual([url, 400, 'validation_failed']);
        if (url.startsWith('https:')) expect(res.body.error).toMatch(/^url: URL port \d+ /);
      }
      const h = await hook({ url: 'https://hooks.example.com:8080/in' });
      expect(h.body.webhook.destination_display).toBe('https://hooks.example.com:8080');
      await hook({ url: 'https://hooks.example.com:443/in' });
      const res = await org.owner.http.patch(`/api/webhooks/${h.id}`).send({ url: 'https://hooks.example.com:6379/in' }).expect(400);
      expect(res.body.error).toMatch(/port 6379 .*Redis/);
      expect((await row(h.id)).destination_display).toBe('https://hooks.example.com:8080');
    });

    it('at most 25 webhooks per organization: the 26th is 422 webhook_limit_reached; deleting one frees a place', async () => {
      const o = await newOrg(t);
      const ids: string[] = [];
      for (let i = 0; i < 25; i++) ids.push((await hook({ enabled: i % 2 === 0 }, o)).id);
      const res = await create({ url: 'https://hooks.example.com/26', events: [] }, o).expect(422);
      expect(res.body).toEqual({ error: expect.stringContaining('at most 25 webhooks'), code: 'webhook_limit_reached', limit: 25, usage: 25 });
      // the cap is per organization
      await hook({}, other);
      await o.owner.http.delete(`/api/webhooks/${ids[0]}`).expect(200);
      await hook({}, o);
      await create({ url: 'https://hooks.example.com/26', events: [] }, o).expect(422);
      expect(Number((await t.db.query('SELECT count(*) AS n FROM webhooks WHERE org_id = $1', [o.id]))[0].n)).toBe(25);
    });

    it('the cap is exact under concurrent creations', async () => {
      const o = await newOrg(t);
      for (let i = 0; i < 20; i++) await hook({}, o);
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => create({ url: `https://hooks.example.com/race/${i}`, events: [] }, o)));
      expect(results.map((r) => r.status).sort()).toEqual([201, 201, 201, 201, 201, 422, 422, 422, 422, 422]);
      expect(Number((await t.db.query('SELECT count(*) AS n FROM webhooks WHERE org_id = $1', [o.id]))[0].n)).toBe(25);
    });
  });

  describe('history, redelivery, ping, delete', () => {
    it('ping creates a delivery record; history has the fields and never the payload', async () => {
      const h = await hook();
      const p = await org.owner.http.post(`/api/webhooks/${h.id}/test`).send({}).expect(202);
      expect(p.body.delivery).toMatchObject({ event: 'ping', schema_version: 2, status: 'pending' });
      const hist = await org.owner.http.get(`/api/webhooks/${h.id}/deliveries`).expect(200);
      expect(hist.body.deliveries).toHaveLength(1);
      const d = hist.body.deliveries[0];
      for (const k of ['id', 'delivery_id', 'event', 'status', 'status_code', 'error_code', 'delivered_at', 'next_retry_at', 'created_at'])
        expect(d).toHaveProperty(k);
      for (const k of ['body', 'payload', 'response', 'response_body', 'raw_error']) expect(d).not.toHaveProperty(k);
      expect(d.payload_retained).toBe(true);
      const r = await org.owner.http.post(`/api/webhooks/${h.id}/redeliver/${d.id}`).send({}).expect(202);
      expect(r.body.delivery).toMatchObject({ event: 'ping', redelivery_of: d.id, payload_retained: true });
      const newest = await org.owner.http.get(`/api/webhooks/${h.id}/deliveries?limit=1`).expect(200);
      expect(newest.body.deliveries.map((x: { id: string }) => x.id)).toEqual([r.body.delivery.id]);
      await org.owner.http.get(`/api/webhooks/${h.id}/deliveries?limit=abc`).expect(400);
      // another webhook's delivery cannot be redelivered through this one
      const h2 = await hook();
      await org.owner.http.post(`/api/webhooks/${h2.id}/redeliver/${d.id}`).send({}).expect(404);
    });

    it('a delivered record whose payload was pruned stays in the history (payload_retained: false) and cannot be redelivered (409)', async () => {
      const h = await hook();
      const p = await org.owner.http.post(`/api/webhooks/${h.id}/test`).send({}).expect(202);
      // what the worker's maintenance does to a payload delivered more than WEBHOOK_PAYLOAD_RETENTION_DAYS ago
      await t.db.query(
        `UPDATE webhook_deliveries SET status = 'delivered', delivered_at = now(), status_code = 200, attempts = 1, body = NULL WHERE org_id = $1 AND id = $2`,
        [org.id, p.body.delivery.id],
      );
      const [d] = (await org.owner.http.get(`/api/webhooks/${h.id}/deliveries`).expect(200)).body.deliveries;
      expect(d).toMatchObject({ id: p.body.delivery.id, status: 'delivered', status_code: 200, payload_retained: false });
      for (const ref of [d.id, d.delivery_id]) {
        const res = await org.owner.http.post(`/api/webhooks/${h.id}/redeliver/${ref}`).send({}).expect(409);
        expect(res.body.code).toBe('delivery_payload_pruned');
      }
      // the database refuses a pending delivery without a payload
      await expect(
        t.db.query(`UPDATE webhook_deliveries SET status = 'pending', delivered_at = NULL WHERE org_id = $1 AND id = $2`, [org.id, d.id]),
      ).rejects.toThrow(/webhook_deliveries_body_ck/);
    });

    it('delete removes the webhook and its history', async () => {
      const h = await hook();
      await org.owner.http.post(`/api/webhooks/${h.id}/test`).send({}).expect(202);
      await org.owner.http.delete(`/api/webhooks/${h.id}`).expect(200, { success: true });
      expect(await row(h.id)).toBeUndefined();
      await org.owner.http.patch(`/api/webhooks/${h.id}`).send({ enabled: true }).expect(404);
      expect(await t.db.query('SELECT 1 FROM webhook_deliveries WHERE org_id = $1 AND webhook_id = $2', [org.id, h.id])).toHaveLength(0);
    });
  });
});
