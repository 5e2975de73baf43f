import { addMember, bearer, newAgent, newOrg, newProject, newUser, randomId, type TestOrg, type TestUser } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';

/**
 * Agent management follows the caller's CURRENT rights (issue 11, point 1), and a member's role
 * change or removal re-evaluates, in the same transaction, the keys that member minted
 * (docs/DECISIONS.md, "Agents"; src/modules/agents/agent-management.policy.ts).
 */
describe('agents: management follows current rights; demotion and removal re-evaluate keys', () => {
  let t: TestApp;
  let org: TestOrg;
  let p1: { id: string; name: string };
  let p2: { id: string; name: string };

  const base = () => `/api/orgs/${org.id}`;
  const me = (key: string) => bearer(t, key).get('/api/auth/me');
  const grant = async (projectId: string, memberId: string, accessLevel: 'view' | 'edit' | 'admin') => {
    await org.owner.http.post(`${base()}/projects/${projectId}/members`).send({ memberId, accessLevel }).expect(201);
  };
  const setRole = (memberId: string, role: string) => org.owner.http.patch(`${base()}/members/${memberId}`).send({ role }).expect(200);
  const create = async (user: TestUser, body: Record<string, unknown>) =>
    (
      await user.http
        .post(`${base()}/agents`)
        .send({ name: `a-${randomId().slice(0, 8)}`, ...body })
        .expect(201)
    ).body as { agent: { id: string; role: string }; apiKey: string; apiKeyId: string };
  const mint = async (user: TestUser, agentId: string) => (await user.http.post(`${base()}/agents/${agentId}/keys`).expect(201)).body.apiKey as string;
  const memberRow = async (id: string) =>
    (await t.db.query('SELECT role, removed_at FROM members WHERE org_id = $1 AND id = $2', [org.id, id]))[0] as { role: string; removed_at: Date | null };
  const activeKeys = async (agentId: string) =>
    (await t.db.query('SELECT count(*)::int AS n FROM api_keys WHERE org_id = $1 AND member_id = $2 AND revoked_at IS NULL', [org.id, agentId]))[0].n;
  const manageableIds = async (user: TestUser) => (await user.http.get(`${base()}/agents/manageable?limit=100`).expect(200)).body.agents.map((a: any) => a.id);

  /** Every management route of one agent, with the status a caller without authority gets. */
  const denied = async (user: TestUser, agentId: string, keyId: string) => {
    const routes: Array<[string, string, object?]> = [
      ['get', `/agents/${agentId}/keys`],
      ['post', `/agents/${agentId}/keys`],
      ['post', `/agents/${agentId}/rotate`],
      ['delete', `/agents/${agentId}/keys/${keyId}`],
      ['patch', `/agents/${agentId}/projects`, { projectIds: [p1.id] }],
      ['delete', `/agents/${agentId}`],
    ];
    for (const [method, path, body] of routes) {
      const req = (user.http as any)[method](`${base()}${path}`);
      const r = await (body ? req.send(body) : req);
      // concealed exactly like an agent the caller never managed (the routes' existing convention)
      expect([method, path, r.status, r.body]).toEqual([method, path, 404, { error: expect.any(String), code: 'not_found' }]);
    }
  };

  beforeAll(async () => {
    t = await startTestApp();
    org = await newOrg(t);
    p1 = await newProject(t, org);
    p2 = await newProject(t, org);
  });
  afterAll(() => t.close());

  describe.each(['member', 'guest'] as const)('an admin demoted to %s', (newRole) => {
    let admin: TestUser;
    let adminId: string;
    let adminAgent: Awaited<ReturnType<typeof create>>;
    let adminKey2: string;
    let ownerKey: string;
    let scoped: Awaited<ReturnType<typeof create>>;
    let othersAgent: Awaited<ReturnType<typeof newAgent>>;
    let keyForOthers: string;

    beforeAll(async () => {
      admin = await newUser(t, `admin-${newRole}`);
      adminId = await addMember(t, org, admin, 'admin');
      // the admin creates an admin agent (first key minted by the admin) and mints one more key
      adminAgent = await create(admin, { role: 'admin' });
      adminKey2 = await mint(admin, adminAgent.agent.id);
      // the owner mints a key of the same agent (the owner holds it)
      ownerKey = await mint(org.owner, adminAgent.agent.id);
      // a project-scoped agent on p1 (the admin has admin everywhere)
      scoped = await create(admin, { projectIds: [p1.id] });
      // an agent the owner created, for which the admin minted a key
      othersAgent = await newAgent(t, org, {});
      keyForOthers = await mint(admin, othersAgent.id);
      for (const k of [adminAgent.apiKey, adminKey2, ownerKey, scoped.apiKey, othersAgent.key, keyForOthers]) await me(k).expect(200);
      expect(await manageableIds(admin)).toEqual(expect.arrayContaining([adminAgent.agent.id, scoped.agent.id, othersAgent.id]));
      await setRole(adminId, newRole);
    });

    it('can no longer mint, rotate, list or revoke keys, change projects or revoke the agents (404 as for any unmanageable agent)', async () => {
      await denied(admin, adminAgent.agent.id, adminAgent.apiKeyId);
      await denied(admin, scoped.agent.id, scoped.apiKeyId);
      await denied(admin, othersAgent.id, othersAgent.keyId);
      expect(await manageableIds(admin)).toEqual([]);
      // the workforce view still lists the agents they created (interface.md), without key prefixes
      const wf = (await admin.http.get(`${base()}/agents/workforce`).expect(200)).body.agents;
      expect(wf.map((a: any) => a.id).sort()).toEqual([adminAgent.agent.id, scoped.agent.id].sort());
      for (const a of wf) expect('key_prefix' in a).toBe(false);
      // nothing was minted, rotated or revoked by the attempts
      expect(await memberRow(adminAgent.agent.id)).toMatchObject({ removed_at: null });
      await me(ownerKey).expect(200);
    });

    it('the keys they minted were revoked in the same transaction as the role change; keys others minted keep working', async () => {
      for (const k of [adminAgent.apiKey, adminKey2, scoped.apiKey, keyForOthers]) await me(k).expect(401);
      await me(ownerKey).expect(200);
      await me(othersAgent.key).expect(200);
      // the agents themselves are unchanged: same role, still live, managed by owners and admins
      expect(await memberRow(adminAgent.agent.id)).toEqual({ role: 'admin', removed_at: null });
      expect((await me(ownerKey).expect(200)).body.auth.role).toBe('admin');
      expect(await activeKeys(scoped.agent.id)).toBe(0);
      const fresh = await mint(org.owner, scoped.agent.id);
      await me(fresh).expect(200);
    });

    it('cannot create an agent with more rights than the new role has', async () => {
      for (const body of [{ name: 'x' }, { name: 'x', role: 'admin' }, { name: 'x', projectIds: [p2.id] }]) {
        const r = await admin.http.post(`${base()}/agents`).send(body);
        expect([body, r.status]).toEqual([body, newRole === 'guest' && 'projectIds' in body ? 404 : 403]);
      }
    });
  });

  describe('a non-admin manages only agents that hold nothing they do not hold themselves', () => {
    let m: TestUser;
    let mId: string;

    beforeAll(async () => {
      m = await newUser(t, 'keeper');
      mId = await addMember(t, org, m, 'admin');
      await grant(p2.id, mId, 'admin');
    });

    it('a demotion that leaves them covering the agent keeps their keys and authority; losing the project loses the authority', async () => {
      const a = await create(m, { projectIds: [p2.id] });
      await setRole(mId, 'member'); // explicit admin on p2 remains: covers the agent's edit on p2
      await me(a.apiKey).expect(200);
      const k = await mint(m, a.agent.id);
      await setRole(mId, 'guest'); // guests keep explicit entries: still covered
      await me(a.apiKey).expect(200);
      await me(k).expect(200);
      await m.http.get(`${base()}/agents/${a.agent.id}/keys`).expect(200);
      expect(await manageableIds(m)).toEqual([a.agent.id]);
      // the owner gives the agent p1, which the guest cannot see: the guest no longer manages it
      await org.owner.http
        .patch(`${base()}/agents/${a.agent.id}/projects`)
        .send({ projectIds: [p1.id, p2.id] })
        .expect(200);
      await denied(m, a.agent.id, a.apiKeyId);
      expect(await manageableIds(m)).toEqual([]);
      // back on p2 only: managed again (the decision is made on every request)
      await org.owner.http
        .patch(`${base()}/agents/${a.agent.id}/projects`)
        .send({ projectIds: [p2.id] })
        .expect(200);
      await m.http.get(`${base()}/agents/${a.agent.id}/keys`).expect(200);
      // the creator with only edit left on p2 still covers the agent's edit there; with view, no longer
      await org.owner.http.patch(`${base()}/projects/${p2.id}/members`).send({ memberId: mId, accessLevel: 'edit' }).expect(200);
      await m.http.get(`${base()}/agents/${a.agent.id}/keys`).expect(200);
      await org.owner.http.patch(`${base()}/projects/${p2.id}/members`).send({ memberId: mId, accessLevel: 'view' }).expect(200);
      await m.http.get(`${base()}/agents/${a.agent.id}/keys`).expect(404);
      await m.http.post(`${base()}/agents/${a.agent.id}/keys`).expect(404);
    });

    it('an organization agent is managed only by owners and admins, even by its creator', async () => {
      const admin = await newUser(t, 'creator');
      const adminId = await addMember(t, org, admin, 'admin');
      const orgAgent = await create(admin, { role: 'member' });
      await setRole(adminId, 'member');
      // a member agent holds no more than a member, but members cannot create organization agents: nor manage them
      await denied(admin, orgAgent.agent.id, orgAgent.apiKeyId);
      await me(orgAgent.apiKey).expect(401);
      // promoted again: manages every agent again (keys revoked earlier stay revoked)
      await setRole(adminId, 'admin');
      await admin.http.get(`${base()}/agents/${orgAgent.agent.id}/keys`).expect(200);
      await me(orgAgent.apiKey).expect(401);
    });

    it('role changes that keep authority (promotions, owner to admin) revoke nothing', async () => {
      const u = await newUser(t, 'promoted');
      const uId = await addMember(t, org, u, 'member');
      const personal = await create(u, { personal: true });
      await setRole(uId, 'admin');
      const orgAgent = await create(u, { role: 'admin' });
      await setRole(uId, 'owner');
      await setRole(uId, 'admin');
      for (const k of [personal.apiKey, orgAgent.apiKey]) await me(k).expect(200);
      // an agent's own role change (owner raises an organization agent) revokes nothing either
      await setRole(orgAgent.agent.id, 'member');
      await me(orgAgent.apiKey).expect(200);
    });
  });

  describe('personal agents', () => {
    it('follow their owner’s live access: an owner who loses project access still manages the agent, which loses it too', async () => {
      const u = await newUser(t, 'pown');
      const uId = await addMember(t, org, u, 'member');
      await grant(p1.id, uId, 'admin');
      const pa = await create(u, { personal: true });
      const level = async (key: string) => (await me(key).expect(200)).body.auth.projectAccess.find((x: any) => x.projectId === p1.id)?.accessLevel;
      expect(await level(pa.apiKey)).toBe('admin');
      await org.owner.http.delete(`${base()}/projects/${p1.id}/members?memberId=${uId}`).expect(200);
      expect(await level(pa.apiKey)).toBe('view');
      // the agent holds exactly the owner's access, so the owner still manages it
      const k = await mint(u, pa.agent.id);
      expect(await level(k)).toBe('view');
      await u.http.get(`${base()}/agents/${pa.agent.id}/keys`).expect(200);
      expect(await manageableIds(u)).toEqual([pa.agent.id]);
    });

    it('an owner demoted to guest loses their personal agents (guests cannot have one): revoked with every key, at once', async () => {
      const u = await newUser(t, 'pguest');
      const uId = await addMember(t, org, u, 'member');
      const pa = await create(u, { personal: true });
      const k2 = await mint(org.owner, pa.agent.id); // even a key an admin minted: the agent itself goes
      await setRole(uId, 'guest');
      await me(pa.apiKey).expect(401);
      await me(k2).expect(401);
      expect((await memberRow(pa.agent.id)).removed_at).not.toBeNull();
      expect(await activeKeys(pa.agent.id)).toBe(0);
      await denied(u, pa.agent.id, pa.apiKeyId);
      await org.owner.http.get(`${base()}/agents/${pa.agent.id}/keys`).expect(404);
      const listed = (await org.owner.http.get(`${base()}/agents?limit=100`).expect(200)).body.agents.map((a: any) => a.id);
      expect(listed).not.toContain(pa.agent.id);
    });
  });

  describe('removing a member', () => {
    it('revokes their personal agents and every key they minted; agents they created stay with the keys others minted', async () => {
      const u = await newUser(t, 'leaver');
      const uId = await addMember(t, org, u, 'member');
      const pa = await create(u, { personal: true });
      await setRole(uId, 'admin');
      const orgAgent = await create(u, { role: 'admin' });
      const ownerKey = await mint(org.owner, orgAgent.agent.id);
      await org.owner.http.delete(`${base()}/members/${uId}`).expect(200, { success: true });
      await me(pa.apiKey).expect(401);
      expect((await memberRow(pa.agent.id)).removed_at).not.toBeNull();
      await me(orgAgent.apiKey).expect(401);
      await me(ownerKey).expect(200);
      expect(await memberRow(orgAgent.agent.id)).toEqual({ role: 'admin', removed_at: null });
      await u.http.get(`${base()}/agents/${orgAgent.agent.id}/keys`).expect(404); // no longer a member
    });

    it('a member who leaves on their own takes their personal agent with them', async () => {
      const u = await newUser(t, 'quitter');
      const uId = await addMember(t, org, u, 'member');
      const pa = await create(u, { personal: true });
      await u.http.delete(`${base()}/members/${uId}`).expect(200);
      await me(pa.apiKey).expect(401);
      expect((await memberRow(pa.agent.id)).removed_at).not.toBeNull();
    });

    it('the re-evaluation commits or rolls back with the member change (one transaction)', async () => {
      // a fixture trigger refuses key revocations of one fresh organization only
      const o = await newOrg(t);
      const u = await newUser(t, 'atomic');
      const uId = await addMember(t, o, u, 'admin');
      const a = (await u.http.post(`/api/orgs/${o.id}/agents`).send({ name: 'atomic', role: 'admin' }).expect(201)).body;
      const pa = (await u.http.post(`/api/orgs/${o.id}/agents`).send({ name: 'atomic-p', personal: true }).expect(201)).body;
      const fn = `test_refuse_revocation_${o.id.replace(/-/g, '')}`;
      await t.db.query(`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.org_id = '${o.id}' AND NEW.revoked_at IS NOT NULL AND OLD.revoked_at IS NULL THEN
            RAISE EXCEPTION 'fixture: key revocation refused' USING ERRCODE = 'check_violation';
          END IF;
          RETURN NEW;
        END $$`);
      await t.db.query(`CREATE TRIGGER ${fn} BEFORE UPDATE ON api_keys FOR EACH ROW EXECUTE FUNCTION ${fn}()`);
      try {
        await o.owner.http.patch(`/api/orgs/${o.id}/members/${uId}`).send({ role: 'member' }).expect(400);
        await o.owner.http.delete(`/api/orgs/${o.id}/members/${uId}`).expect(400);
      } finally {
        await t.db.query(`DROP TRIGGER ${fn} ON api_keys`);
        await t.db.query(`DROP FUNCTION ${fn}()`);
      }
      // neither change happened: the member is still a live admin and every key works
      const row = (await t.db.query('SELECT role, removed_at FROM members WHERE org_id = $1 AND id = $2', [o.id, uId]))[0];
      expect(row).toEqual({ role: 'admin', removed_at: null });
      await me(a.apiKey).expect(200);
      await me(pa.apiKey).expect(200);
      // without the fixture the same removal goes through with its effects
      await o.owner.http.delete(`/api/orgs/${o.id}/members/${uId}`).expect(200);
      await me(a.apiKey).expect(401);
      await me(pa.apiKey).expect(401);
    });

    it('a key or agent minted while the caller is being demoted waits for the demotion, then is refused (409 role_changed)', async () => {
      const u = await newUser(t, 'racer');
      const uId = await addMember(t, org, u, 'admin');
      const target = await newAgent(t, org, { role: 'admin' });
      const agentsBefore = (await t.db.query(`SELECT count(*)::int AS n FROM members WHERE org_id = $1 AND type = 'agent'`, [org.id]))[0].n;
      for (const send of [
        () => u.http.post(`${base()}/agents/${target.id}/keys`),
        () => u.http.post(`${base()}/agents`).send({ name: 'racing', role: 'admin' }),
      ]) {
        // a demotion in flight: the member row is changed by a transaction that has not committed yet
        const qr = t.db.createQueryRunner();
        await qr.connect();
        try {
          await qr.startTransaction();
          const pid = (await qr.query('SELECT pg_backend_pid() AS pid'))[0].pid;
          await qr.query(`UPDATE members SET role = 'member' WHERE org_id = $1 AND id = $2`, [org.id, uId]);
          // the request authenticates with the committed role (admin), then waits on the member row
          const pending = send().then((r) => r);
          let blocked = false;
          for (let i = 0; i < 400 && !blocked; i++) {
            const w = await t.db.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))', [pid]);
            blocked = w[0].n > 0;
            if (!blocked) await new Promise((r) => setTimeout(r, 25));
          }
          expect(blocked).toBe(true);
          await qr.commitTransaction();
          const res = await pending;
          expect([res.status, res.body.code]).toEqual([409, 'role_changed']);
        } finally {
          if (qr.isTransactionActive) await qr.rollbackTransaction();
          await qr.release();
        }
        await t.db.query(`UPDATE members SET role = 'admin' WHERE org_id = $1 AND id = $2`, [org.id, uId]);
      }
      expect(await activeKeys(target.id)).toBe(1);
      expect((await t.db.query(`SELECT count(*)::int AS n FROM members WHERE org_id = $1 AND type = 'agent'`, [org.id]))[0].n).toBe(agentsBefore);
    });

    it('a refused member change (last owner) changes no agent or key', async () => {
      const pa = await create(org.owner, { personal: true });
      const r = await org.owner.http.delete(`${base()}/members/${org.ownerMemberId}`).expect(409);
      expect(r.body.code).toBe('last_owner');
      await me(pa.apiKey).expect(200);
      await org.owner.http.patch(`${base()}/members/${org.ownerMemberId}`).send({ role: 'guest' }).expect(409);
      await me(pa.apiKey).expect(200);
    });
  });

  describe('creation never gives an agent more than its creator has', () => {
    it('members: no organization agents, project agents only where they are project admins, personal agents with their own access', async () => {
      const u = await newUser(t, 'creator-m');
      const uId = await addMember(t, org, u, 'member');
      await grant(p2.id, uId, 'edit');
      const before = await t.db.query(`SELECT count(*)::int AS n FROM members WHERE org_id = $1 AND type = 'agent'`, [org.id]);
      for (const body of [{}, { role: 'admin' }, { role: 'member' }, { projectIds: [p2.id] }, { projectIds: [p1.id] }, { projectIds: [p1.id, p2.id] }]) {
        const r = await u.http.post(`${base()}/agents`).send({ name: 'too-much', ...body });
        expect([body, r.status, r.body.code]).toEqual([body, 403, 'forbidden']);
      }
      const after = await t.db.query(`SELECT count(*)::int AS n FROM members WHERE org_id = $1 AND type = 'agent'`, [org.id]);
      expect(after[0].n).toBe(before[0].n);
      const pa = await create(u, { personal: true });
      const access = (await me(pa.apiKey).expect(200)).body.auth;
      expect(access.role).toBe('member');
      const levels = Object.fromEntries(access.projectAccess.map((x: any) => [x.projectId, x.accessLevel]));
      expect(levels[p1.id]).toBe('view');
      expect(levels[p2.id]).toBe('edit');
      expect(Object.values(levels)).not.toContain('admin');
    });

    it('guests: no personal agents; project agents only on projects they administer', async () => {
      const g = await newUser(t, 'creator-g');
      const gId = await addMember(t, org, g, 'guest');
      await grant(p1.id, gId, 'edit');
      await g.http.post(`${base()}/agents`).send({ name: 'x', personal: true }).expect(403);
      await g.http
        .post(`${base()}/agents`)
        .send({ name: 'x', projectIds: [p1.id] })
        .expect(403);
      await g.http
        .post(`${base()}/agents`)
        .send({ name: 'x', projectIds: [p2.id] })
        .expect(404);
    });
  });
});
