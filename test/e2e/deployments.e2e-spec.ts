import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../support/app';
import { addMember, newOrg, newUser, type TestOrg, type TestUser } from '../support/factories';
import { type FakeVercel, startFakeVercel } from '../support/fake-vercel';

/**
 * Deployment connections and the inbound Vercel callback over HTTP, against a local server playing
 * the Vercel API (test/support/fake-vercel.ts): live validation, write-only sealed credentials,
 * who may manage connections, the callback's order of checks (connection, signature over the raw
 * body, size, JSON, type, signed ids, provider identity), the exact bodies, replays, and a provider
 * that times out, fails or answers garbage (never a 5xx from us).
 */
const hex = (n: number) => randomBytes(n).toString('hex');
const sign = (secret: string, raw: string | Buffer) => createHmac('sha1', secret).update(raw).digest('hex');

describe('deployment connections and the Vercel callback', () => {
  let t: TestApp;
  let fake: FakeVercel;
  let org: TestOrg;
  let other: TestOrg;
  let admin: TestUser;
  let member: TestUser;
  let guest: TestUser;
  const team = `team_${hex(6)}`;
  const project = `prj_${hex(6)}`;
  const deployment = `dpl_${hex(6)}`;
  const base = () => `/api/orgs/${org.id}/deployment-connections`;

  beforeAll(async () => {
    fake = await startFakeVercel();
    t = await startTestApp({ SERVICE_VERCEL_API_URL: fake.url, SERVICE_PROVIDER_TIMEOUT_MS: '300', SERVICE_PROVIDER_RETRIES: '2' });
    fake.projects.set(project, { id: project, name: 'shop', accountId: team });
    fake.deployments.set(deployment, {
      id: deployment,
      projectId: project,
      teamId: team,
      target: 'production',
      readyState: 'READY',
      url: 'shop-abc.vercel.app',
    });
    org = await newOrg(t);
    other = await newOrg(t);
    admin = await newUser(t, 'admin');
    member = await newUser(t, 'member');
    guest = await newUser(t, 'guest');
    await addMember(t, org, admin, 'admin');
    await addMember(t, org, member, 'member');
    await addMember(t, org, guest, 'guest');
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });
  afterEach(() => {
    fake.mode = 'normal';
    fake.failFirst = 0;
  });

  const newConnection = async (who: TestUser = org.owner) => {
    const token = `vtok_${hex(12)}`;
    const secret = `vwh_${hex(16)}`;
    const res = await who.http.post(base()).send({ provider: 'vercel', token, team_id: team, project_id: project, webhook_secret: secret }).expect(201);
    return { conn: res.body.connection, token, secret, res };
  };
  const event = (type: string, over: { id?: string; deployment?: string; project?: string; team?: string; pad?: string } = {}) =>
    JSON.stringify({
      id: over.id ?? `evt_${hex(8)}`,
      type,
      createdAt: Date.now(),
      payload: {
        team: { id: over.team ?? team },
        user: { id: 'user_1' },
        project: { id: over.project ?? project },
        target: 'production',
        deployment: { id: over.deployment ?? deployment, name: 'shop', url: 'shop-abc.vercel.app', meta: {} },
        links: { deployment: 'https://vercel.com/acme/shop/x', project: 'https://vercel.com/acme/shop' },
        ...(over.pad !== undefined ? { pad: over.pad } : {}),
      },
    });
  const post = (id: string, raw: string | Buffer, signature?: string | null) => {
    const r = t.http().post(`/api/webhooks/vercel/${id}`).set('content-type', 'application/json');
    if (signature) r.set('x-vercel-signature', signature);
    return r.send(raw);
  };

  describe('connections', () => {
    it('owner and admin create: validated live, 201 { connection } without credentials; the stored values are sealed', async () => {
      const { conn, token, secret, res } = await newConnection();
      expect(conn).toMatchObject({
        provider: 'vercel',
        team_id: team,
        project_id: project,
        project_name: 'shop',
        enabled: true,
        token_configured: true,
        webhook_secret_configured: true,
      });
      expect(conn.webhook_path).toBe(`/api/webhooks/vercel/${conn.id}`);
      expect(res.text).not.toContain(token);
      expect(res.text).not.toContain(secret);
      const last = fake.requests[fake.requests.length - 1];
      expect(last).toEqual({ method: 'GET', path: `/v9/projects/${project}`, authorization: `Bearer ${token}` });
      const [row] = await t.db.query('SELECT token_sealed, webhook_secret_sealed FROM deployment_connections WHERE id = $1', [conn.id]);
      expect(row.token_sealed).not.toContain(token);
      expect(row.webhook_secret_sealed).not.toContain(secret);
      await newConnection(admin);
    });

    it('accepts the camelCase aliases and access_token', async () => {
      await org.owner.http
        .post(base())
        .send({ provider: 'vercel', access_token: `vtok_${hex(8)}`, teamId: team, projectId: project, webhookSecret: `vwh_${hex(8)}` })
        .expect(201);
    });

    it('a bad token is 422 provider_token_invalid; an unknown project 422 provider_project_not_found; nothing stored', async () => {
      const before = (await org.owner.http.get(base()).expect(200)).body.connections.length;
      fake.badTokens.add('vtok_revoked_1');
      const bad = await org.owner.http
        .post(base())
        .send({ token: 'vtok_revoked_1', team_id: team, project_id: project, webhook_secret: 'vwh_12345678' })
        .expect(422);
      expect(bad.body).toEqual({ error: expect.any(String), code: 'provider_token_invalid' });
      const unknown = await org.owner.http
        .post(base())
        .send({ token: 'vtok_12345678', team_id: team, project_id: 'prj_nope', webhook_secret: 'vwh_12345678' })
        .expect(422);
      expect(unknown.body.code).toBe('provider_project_not_found');
      const otherTeam = await org.owner.http
        .post(base())
        .send({ token: 'vtok_12345678', team_id: 'team_other', project_id: project, webhook_secret: 'vwh_12345678' })
        .expect(422);
      expect(otherTeam.body.code).toBe('provider_project_not_found');
      expect((await org.owner.http.get(base()).expect(200)).body.connections).toHaveLength(before);
    });

    it.each(['error500', 'ratelimited', 'garbage', 'wrongShape', 'timeout'] as const)(
      'a provider answering %s gives 422 provider_unavailable, never a 5xx',
      async (mode) => {
        fake.mode = mode;
        const res = await org.owner.http.post(base()).send({ token: 'vtok_12345678', team_id: team, project_id: project, webhook_secret: 'vwh_12345678' });
        expect(res.status).toBe(422);
        expect(res.body.code).toBe('provider_unavailable');
      },
    );

    it('a 500 then success is retried with backoff and succeeds', async () => {
      fake.failFirst = 2;
      await newConnection();
    });

    it('bad input is 400 before the provider is asked', async () => {
      const n = fake.requests.length;
      for (const body of [
        {},
        { token: 'vtok_12345678', project_id: project },
        { provider: 'netlify', token: 'vtok_12345678', project_id: project, webhook_secret: 'vwh_12345678' },
        { token: 'x', project_id: project, webhook_secret: 'vwh_12345678' },
        { token: 'vtok_12345678', project_id: '../etc', webhook_secret: 'vwh_12345678' },
      ]) {
        const res = await org.owner.http.post(base()).send(body).expect(400);
        expect(res.body.code).toBe('validation_failed');
      }
      expect(fake.requests.length).toBe(n);
    });

    it('members and guests get 403, another organization 404, anonymous 401', async () => {
      const body = { token: 'vtok_12345678', team_id: team, project_id: project, webhook_secret: 'vwh_12345678' };
      for (const who of [member, guest]) {
        await who.http.get(base()).expect(403);
        await who.http.post(base()).send(body).expect(403);
      }
      await other.owner.http.get(base()).expect(404);
      await other.owner.http.post(base()).send(body).expect(404);
      await t.http().get(base()).expect(401);
      const { conn } = await newConnection();
      await member.http.delete(`${base()}/${conn.id}`).expect(403);
      await other.owner.http.delete(`/api/orgs/${other.id}/deployment-connections/${conn.id}`).expect(404);
      await other.owner.http.get(`/api/orgs/${other.id}/deployment-connections/${conn.id}`).expect(404);
    });

    it('lists, reads and deletes; a deleted connection no longer receives callbacks', async () => {
      const { conn, secret } = await newConnection();
      const list = await org.owner.http.get(base()).expect(200);
      expect(list.body.connections.map((c: { id: string }) => c.id)).toContain(conn.id);
      expect(JSON.stringify(list.body)).not.toMatch(/vtok_|vwh_/);
      const one = await org.owner.http.get(`${base()}/${conn.id}`).expect(200);
      expect(one.body.connection).toMatchObject({ id: conn.id, deployments: [] });
      await org.owner.http.delete(`${base()}/${conn.id}`).expect(200, { success: true });
      await org.owner.http.delete(`${base()}/${conn.id}`).expect(404);
      await org.owner.http.get(`${base()}/${conn.id}`).expect(404);
      const raw = event('deployment.succeeded');
      const res = await post(conn.id, raw, sign(secret, raw)).expect(404);
      expect(res.body.error).toBe('not_found');
    });
  });

  describe('callback', () => {
    let conn: { id: string };
    let secret: string;
    beforeAll(async () => {
      ({ conn, secret } = await newConnection());
    });

    it('an unknown connection or a non-UUID id is 404', async () => {
      const raw = event('deployment.succeeded');
      for (const id of [randomUUID(), 'not-a-uuid']) {
        const res = await post(id, raw, sign('whatever', raw)).expect(404);
        expect(res.body).toEqual({ error: 'not_found', code: 'not_found' });
      }
    });

    it('the HMAC-SHA1 signature is checked over the exact raw body: wrong, missing, malformed or for other bytes is 401', async () => {
      const raw = event('deployment.succeeded');
      const cases: [string | Buffer, string | null][] = [
        [raw, sign('not-the-secret', raw)],
        [raw, null],
        [raw, 'zz'],
        [raw, sign(secret, raw).slice(0, 39)],
        [raw, `${sign(secret, raw)}00`],
        [`${raw} `, sign(secret, raw)],
        ['{not json', sign('nope', '{not json')],
      ];
      for (const [body, sig] of cases) {
        const res = await post(conn.id, body, sig).expect(401);
        expect(res.body.error).toBe('invalid_signature');
      }
      const [{ n }] = await t.db.query('SELECT count(*)::int AS n FROM deployment_events WHERE connection_id = $1', [conn.id]);
      expect(n).toBe(0);
    });

    it('a signed body that is not JSON (or not an event) is 400 invalid_payload', async () => {
      for (const raw of [
        '{not json',
        '[]',
        '{"type": 5}',
        JSON.stringify({ type: 'deployment.ready', payload: {} }),
        JSON.stringify({ id: 'evt_1', type: 'deployment.ready', payload: { project: { id: project }, team: { id: team } } }),
      ]) {
        const res = await post(conn.id, raw, sign(secret, raw)).expect(400);
        expect(res.body.error).toBe('invalid_payload');
      }
    });

    it('exactly 256 KiB is accepted; one byte more is 413', async () => {
      const empty = event('deployment.ready', { pad: '' });
      const exact = event('deployment.ready', { pad: 'x'.repeat(256 * 1024 - Buffer.byteLength(empty)) });
      expect(Buffer.byteLength(exact)).toBe(256 * 1024);
      const ok = await post(conn.id, exact, sign(secret, exact)).expect(200);
      expect(ok.body.accepted).toBe(true);
      const over = event('deployment.ready', { pad: 'x'.repeat(256 * 1024 - Buffer.byteLength(empty) + 1) });
      const res = await post(conn.id, over, sign(secret, over)).expect(413);
      expect(res.body.code).toBe('payload_too_large');
    });

    it('a signed event of another type is { skipped: true } and records nothing', async () => {
      const raw = event('project.created');
      await post(conn.id, raw, sign(secret, raw)).expect(200, { skipped: true });
    });

    it("a signed team or project that is not the connection's is 422 connection_mismatch", async () => {
      for (const raw of [event('deployment.ready', { project: 'prj_other' }), event('deployment.ready', { team: 'team_other' })]) {
        const res = await post(conn.id, raw, sign(secret, raw)).expect(422);
        expect(res.body.error).toBe('connection_mismatch');
      }
    });

    it.each(['deployment.created', 'deployment.ready', 'deployment.succeeded', 'deployment.error', 'deployment.canceled', 'deployment.promoted'])(
      '%s is recorded: { accepted: true, duplicate: false, complete: true, code: null }; its replay is duplicate: true',
      async (type) => {
        const raw = event(type);
        await post(conn.id, raw, sign(secret, raw)).expect(200, { accepted: true, duplicate: false, complete: true, code: null });
        await post(conn.id, raw, sign(secret, raw)).expect(200, { accepted: true, duplicate: true, complete: true, code: null });
      },
    );

    it('the deployment projection holds the provider-confirmed snapshot and no raw payload', async () => {
      const res = await org.owner.http.get(`${base()}/${conn.id}`).expect(200);
      const d = res.body.connection.deployments.find((x: { deployment_id: string }) => x.deployment_id === deployment);
      expect(d).toMatchObject({ project_id: project, environment: 'production', ready_state: 'READY', production: true, url: 'shop-abc.vercel.app' });
      expect(d.verified_at).toEqual(expect.any(String));
      const cols = await t.db.query("SELECT column_name FROM information_schema.columns WHERE table_name IN ('deployment_events', 'deployments')");
      expect(cols.map((c: { column_name: string }) => c.column_name)).not.toContain('payload');
    });

    it.each([
      ['error500', 'provider_unavailable'],
      ['timeout', 'provider_unavailable'],
      ['garbage', 'provider_unavailable'],
      ['wrongShape', 'provider_unavailable'],
    ] as const)('a provider answering %s: 200 complete: false, code %s (durable); the replay after recovery completes it', async (mode, code) => {
      const raw = event('deployment.succeeded');
      fake.mode = mode;
      await post(conn.id, raw, sign(secret, raw)).expect(200, { accepted: true, duplicate: false, complete: false, code });
      fake.mode = 'normal';
      await post(conn.id, raw, sign(secret, raw)).expect(200, { accepted: true, duplicate: true, complete: true, code: null });
    });

    it('a deployment the provider does not know is deployment_not_found; one of another project is identity_mismatch', async () => {
      const unknown = event('deployment.ready', { deployment: 'dpl_unknown' });
      await post(conn.id, unknown, sign(secret, unknown)).expect(200, { accepted: true, duplicate: false, complete: false, code: 'deployment_not_found' });
      const foreign = `dpl_${hex(5)}`;
      fake.deployments.set(foreign, {
        id: foreign,
        projectId: 'prj_someone_else',
        teamId: team,
        target: 'production',
        readyState: 'READY',
        url: 'x.vercel.app',
      });
      const raw = event('deployment.ready', { deployment: foreign });
      await post(conn.id, raw, sign(secret, raw)).expect(200, { accepted: true, duplicate: false, complete: false, code: 'identity_mismatch' });
      const res = await org.owner.http.get(`${base()}/${conn.id}`).expect(200);
      const d = res.body.connection.deployments.find((x: { deployment_id: string }) => x.deployment_id === foreign);
      expect(d).toMatchObject({ environment: null, production: false, verified_at: null });
    });

    it('a promotion the provider does not show in production is production_unconfirmed until it does (replay applies the newer snapshot)', async () => {
      const preview = `dpl_${hex(5)}`;
      fake.deployments.set(preview, {
        id: preview,
        projectId: project,
        teamId: team,
        target: 'production',
        readySubstate: 'STAGED',
        readyState: 'READY',
        url: 'p.vercel.app',
      });
      const raw = event('deployment.promoted', { deployment: preview });
      await post(conn.id, raw, sign(secret, raw)).expect(200, { accepted: true, duplicate: false, complete: false, code: 'production_unconfirmed' });
      fake.deployments.set(preview, { ...fake.deployments.get(preview)!, readySubstate: 'PROMOTED' });
      await post(conn.id, raw, sign(secret, raw)).expect(200, { accepted: true, duplicate: true, complete: true, code: null });
      const res = await org.owner.http.get(`${base()}/${conn.id}`).expect(200);
      expect(res.body.connection.deployments.find((x: { deployment_id: string }) => x.deployment_id === preview)).toMatchObject({ production: true });
    });

    it('concurrent copies of one event: exactly one is not a duplicate', async () => {
      const raw = event('deployment.ready');
      const all = await Promise.all(Array.from({ length: 5 }, () => post(conn.id, raw, sign(secret, raw))));
      expect(all.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      expect(all.filter((r) => r.body.duplicate === false)).toHaveLength(1);
    });

    it('a revoked provider token is provider_unauthorized', async () => {
      const c = await newConnection();
      fake.badTokens.add(c.token);
      const raw = event('deployment.ready');
      await post(c.conn.id, raw, sign(c.secret, raw)).expect(200, { accepted: true, duplicate: false, complete: false, code: 'provider_unauthorized' });
    });
  });
});
