import { createHash } from 'node:crypto';
import { addMember, bearer, newAgent, newOrg, newProject, newUser, randomId, type TestOrg, type TestUser, uniq } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import { withoutDetails } from '../support/errors';

const KEY_RE = /^sk_service_[A-Za-z0-9_-]{43}$/;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_RE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const UNAUTHORIZED = { error: 'Unauthorized', code: 'unauthorized' };
const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest();
const sortAccess = (a: Array<{ projectId: string; accessLevel: string }>) => [...a].sort((x, y) => x.projectId.localeCompare(y.projectId));

describe('agents: creation, keys, management, manageable and workforce views', () => {
  let t: TestApp;
  let org: TestOrg;
  let p1: { id: string; name: string };
  let p2: { id: string; name: string };
  let p3: { id: string; name: string };
  /** A plain member with admin access on p2 only (view elsewhere). */
  let member: TestUser;
  let memberId: string;
  /** An organization admin (human). */
  let admin: TestUser;
  /** A guest with admin access on p1 only. */
  let guest: TestUser;
  let guestId: string;

  const base = () => `/api/orgs/${org.id}`;
  const grant = async (projectId: string, mId: string, accessLevel: 'view' | 'edit' | 'admin') => {
    await org.owner.http.post(`${base()}/projects/${projectId}/members`).send({ memberId: mId, accessLevel }).expect(201);
  };
  const me = (key: string) => bearer(t, key).get('/api/auth/me');

  beforeAll(async () => {
    t = await startTestApp();
    org = await newOrg(t);
    p1 = await newProject(t, org);
    p2 = await newProject(t, org);
    p3 = await newProject(t, org);
    member = await newUser(t, 'member');
    memberId = await addMember(t, org, member, 'member');
    admin = await newUser(t, 'admin');
    await addMember(t, org, admin, 'admin');
    guest = await newUser(t, 'guest');
    guestId = await addMember(t, org, guest, 'guest');
    await grant(p2.id, memberId, 'admin');
    await grant(p1.id, guestId, 'admin');
  });
  afterAll(() => t.close());

  describe('POST /agents', () => {
    it('organization agent: 201 with the agent, a one-time sk_service_ key and its id; only the hash is stored', async () => {
      const res = await org.owner.http.post(`${base()}/agents`).send({ name: '  Builder  ', role: 'admin' }).expect(201);
      const { agent, apiKey, apiKeyId } = res.body;
      expect(Object.keys(res.body).sort()).toEqual(['agent', 'apiKey', 'apiKeyId']);
      expect(agent).toEqual({
        id: expect.stringMatching(UUID_RE),
        member_id: agent.id,
        name: 'Builder',
        display_name: 'Builder',
        type: 'agent',
        role: 'admin',
        scope: 'organization',
        project_ids: [],
        owner_member_id: null,
        created_by_member_id: org.ownerMemberId,
        created_at: expect.stringMatching(ISO_RE),
      });
      expect(apiKey).toMatch(KEY_RE);
      expect(apiKeyId).toMatch(UUID_RE);

      const rows = await t.db.query(
        'SELECT member_id, key_hash, key_prefix, revoked_at, row_to_json(k)::text AS json FROM api_keys k WHERE org_id = $1 AND id = $2',
        [org.id, apiKeyId],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0].member_id).toBe(agent.id);
      expect(Buffer.compare(rows[0].key_hash, sha256(apiKey))).toBe(0);
      expect(rows[0].key_prefix).toBe(apiKey.slice(0, 'sk_service_'.length + 6));
      expect(rows[0].revoked_at).toBeNull();
      expect(rows[0].json).not.toContain(apiKey.slice('sk_service_'.length));
      const m = await t.db.query('SELECT type, role, agent_scope, user_id, created_by_member_id FROM members WHERE org_id = $1 AND id = $2', [
        org.id,
        agent.id,
      ]);
      expect(m[0]).toEqual({ type: 'agent', role: 'admin', agent_scope: 'organization', user_id: null, created_by_member_id: org.ownerMemberId });
    });

    it('organization agent role defaults to member; an agent can never be owner (or guest)', async () => {
      const a = await newAgent(t, org, {});
      expect(a.body.agent).toMatchObject({ role: 'member', scope: 'organization' });
      for (const role of ['owner', 'guest', 'superuser', 5]) {
        const r = await org.owner.http.post(`${base()}/agents`).send({ name: 'x', role }).expect(400);
        expect(withoutDetails(r.body)).toEqual({ error: expect.any(String), code: 'validation_failed' });
      }
    });

    it('the key authenticates on /api/auth/me as the agent; a role change via SQL shows on the next request', async () => {
      const a = await newAgent(t, org, {});
      const res = await me(a.key).expect(200);
      expect(res.body.auth).toMatchObject({
        type: 'agent',
        agentId: a.id,
        memberId: a.id,
        memberType: 'agent',
        orgId: org.id,
        role: 'member',
        scopes: [],
        agentScope: 'organization',
        userId: null,
      });
      // member baseline: view on every project
      expect(sortAccess(res.body.auth.projectAccess)).toEqual(sortAccess([p1, p2, p3].map((p) => ({ projectId: p.id, accessLevel: 'view' }))));
      await t.db.query(`UPDATE members SET role = 'admin' WHERE org_id = $1 AND id = $2`, [org.id, a.id]);
      const after = await me(a.key).expect(200);
      expect(after.body.auth.role).toBe('admin');
      expect(sortAccess(after.body.auth.projectAccess)).toEqual(sortAccess([p1, p2, p3].map((p) => ({ projectId: p.id, accessLevel: 'admin' }))));
    });

    it('project-scoped agent: an org guest with edit on exactly its projects (projectIds, project_ids, legacy projectId)', async () => {
      const res = await org.owner.http
        .post(`${base()}/agents`)
        .send({ name: 'Scoped', projectIds: [p1.id, p2.id] })
        .expect(201);
      const agent = res.body.agent;
      expect(agent).toMatchObject({ role: 'guest', scope: 'project', type: 'agent', owner_member_id: null });
      expect([...agent.project_ids].sort()).toEqual([p1.id, p2.id].sort());
      const pm = await t.db.query('SELECT project_id, access_level FROM project_members WHERE org_id = $1 AND member_id = $2 ORDER BY project_id', [
        org.id,
        agent.id,
      ]);
      expect(pm).toEqual([p1.id, p2.id].sort().map((project_id) => ({ project_id, access_level: 'edit' })));
      const ctx = (await me(res.body.apiKey).expect(200)).body.auth;
      expect(ctx).toMatchObject({ role: 'guest', agentScope: 'project', memberType: 'agent' });
      expect(sortAccess(ctx.projectAccess)).toEqual(sortAccess([p1, p2].map((p) => ({ projectId: p.id, accessLevel: 'edit' }))));

      const snake = await org.owner.http
        .post(`${base()}/agents`)
        .send({ name: 'Snake', project_ids: [p3.id] })
        .expect(201);
      expect(snake.body.agent.project_ids).toEqual([p3.id]);
      const legacy = await org.owner.http.post(`${base()}/agents`).send({ name: 'Legacy', projectId: p2.id }).expect(201);
      expect(legacy.body.agent).toMatchObject({ scope: 'project', role: 'guest', project_ids: [p2.id] });
      const both = await org.owner.http
        .post(`${base()}/agents`)
        .send({ name: 'Both', projectId: p1.id, projectIds: [p1.id, p3.id] })
        .expect(201);
      expect([...both.body.agent.project_ids].sort()).toEqual([p1.id, p3.id].sort());
    });

    it('project-scoped agent: caller needs project admin on every project (unknown/unreadable 404, readable without admin 403)', async () => {
      // member has admin on p2 only (view on p1 through the member baseline)
      const ok = await member.http
        .post(`${base()}/agents`)
        .send({ name: 'MemberScoped', projectIds: [p2.id] })
        .expect(201);
      expect(ok.body.agent).toMatchObject({ scope: 'project', created_by_member_id: memberId, project_ids: [p2.id] });
      const forbidden = await member.http
        .post(`${base()}/agents`)
        .send({ name: 'x', projectIds: [p2.id, p1.id] })
        .expect(403);
      expect(forbidden.body.code).toBe('forbidden');
      await member.http
        .post(`${base()}/agents`)
        .send({ name: 'x', projectIds: [randomId()] })
        .expect(404);
      // the guest has admin on p1 and cannot see p3 at all
      await guest.http
        .post(`${base()}/agents`)
        .send({ name: 'GuestScoped', projectIds: [p1.id] })
        .expect(201);
      const hidden = await guest.http
        .post(`${base()}/agents`)
        .send({ name: 'x', projectIds: [p1.id, p3.id] })
        .expect(404);
      expect(hidden.body.code).toBe('not_found');
      // a project of another organization is unknown here
      const other = await newOrg(t);
      const foreign = await newProject(t, other);
      await org.owner.http
        .post(`${base()}/agents`)
        .send({ name: 'x', projectIds: [foreign.id] })
        .expect(404);
      const n = await t.db.query(`SELECT count(*)::int AS n FROM members WHERE org_id = $1 AND display_name = 'x'`, [org.id]);
      expect(n[0].n).toBe(0);
    });

    it('organization agents need an owner/admin; personal agents any non-guest human', async () => {
      await member.http.post(`${base()}/agents`).send({ name: 'x' }).expect(403);
      await member.http.post(`${base()}/agents`).send({ name: 'x', role: 'admin' }).expect(403);
      await guest.http.post(`${base()}/agents`).send({ name: 'x' }).expect(403);
      await guest.http.post(`${base()}/agents`).send({ name: 'x', personal: true }).expect(403);
      const ok = await admin.http.post(`${base()}/agents`).send({ name: 'ByAdmin' }).expect(201);
      expect(ok.body.agent.scope).toBe('organization');
    });

    it('personal agent: role member, owned by the caller, with exactly its owner’s live access', async () => {
      const res = await member.http.post(`${base()}/agents`).send({ name: 'Mine', personal: true }).expect(201);
      expect(res.body.agent).toMatchObject({ scope: 'personal', role: 'member', owner_member_id: memberId, created_by_member_id: memberId, project_ids: [] });
      const ctx = (await me(res.body.apiKey).expect(200)).body.auth;
      expect(ctx).toMatchObject({ agentScope: 'personal', role: 'member' });
      // the owner (a member): view everywhere, admin on p2
      const expected = [
        { projectId: p1.id, accessLevel: 'view' },
        { projectId: p2.id, accessLevel: 'admin' },
        { projectId: p3.id, accessLevel: 'view' },
      ];
      expect(sortAccess(ctx.projectAccess)).toEqual(sortAccess(expected));
      // an owner's access change applies to the agent on its next request (same key)
      await t.db.query(`UPDATE project_members SET access_level = 'edit' WHERE org_id = $1 AND project_id = $2 AND member_id = $3`, [org.id, p2.id, memberId]);
      try {
        const next = (await me(res.body.apiKey).expect(200)).body.auth;
        expect(next.projectAccess.find((a: any) => a.projectId === p2.id).accessLevel).toBe('edit');
      } finally {
        await t.db.query(`UPDATE project_members SET access_level = 'admin' WHERE org_id = $1 AND project_id = $2 AND member_id = $3`, [
          org.id,
          p2.id,
          memberId,
        ]);
      }
    });

    it('malformed input is 400 in the error shape, never 500', async () => {
      const bodies: unknown[] = [
        {},
        { name: {} },
        { name: '' },
        { name: '   ' },
        { name: 'a'.repeat(201) },
        { name: 'a', projectIds: 'x' },
        { name: 'a', projectIds: ['not-a-uuid'] },
        { name: 'a', projectIds: [] },
        { name: 'a', projectIds: [{}] },
        { name: 'a', projectId: 42 },
        { name: 'a', personal: 'yes' },
        { name: 'a', personal: true, projectIds: [p1.id] },
        { name: 'a', personal: true, role: 'admin' },
        { name: 'a', projectIds: [p1.id], role: 'admin' },
        { name: 'a', projectIds: [p1.id], project_ids: [p2.id] },
      ];
      for (const body of bodies) {
        const r = await org.owner.http.post(`${base()}/agents`).send(body as object);
        expect([r.status, body]).toEqual([400, body]);
        expect(withoutDetails(r.body)).toEqual({ error: expect.any(String), code: 'validation_failed' });
      }
      await org.owner.http.post(`${base()}/agents`).set('content-type', 'application/json').send('[]').expect(400);
      await org.owner.http.post(`${base()}/agents`).set('content-type', 'application/json').send('{"name": ').expect(400);
    });

    it('humans only: an agent key (even an admin agent) cannot create agents', async () => {
      const a = await newAgent(t, org, { role: 'admin' });
      const r = await bearer(t, a.key).post(`${base()}/agents`).send({ name: 'child' }).expect(403);
      expect(r.body.code).toBe('forbidden');
      await bearer(t, a.key).post(`${base()}/agents`).send({ name: 'child', personal: true }).expect(403);
    });
  });

  describe('keys', () => {
    it('mint adds a key (both work), revoke stops one on the next request, rotate replaces all', async () => {
      const a = await newAgent(t, org, {});
      const keysUrl = `${base()}/agents/${a.id}/keys`;
      const minted = await org.owner.http.post(keysUrl).expect(201);
      expect(minted.body).toEqual({
        key: { id: minted.body.apiKeyId, key_prefix: minted.body.apiKey.slice(0, 17), created_at: expect.stringMatching(ISO_RE) },
        apiKey: expect.stringMatching(KEY_RE),
        apiKeyId: expect.stringMatching(UUID_RE),
      });
      const key2 = minted.body.apiKey as string;
      expect(key2).not.toBe(a.key);
      await me(a.key).expect(200);
      await me(key2).expect(200);

      const list = await org.owner.http.get(keysUrl).expect(200);
      expect(list.body.keys).toHaveLength(2);
      for (const k of list.body.keys) expect(Object.keys(k).sort()).toEqual(['created_at', 'id', 'key_prefix', 'last_used_at', 'revoked_at']);
      expect(list.body.keys[0].id).toBe(minted.body.apiKeyId); // newest first
      expect(JSON.stringify(list.body)).not.toContain(a.key);
      expect(JSON.stringify(list.body)).not.toContain(key2);

      await org.owner.http.delete(`${keysUrl}/${a.keyId}`).expect(200, { success: true });
      const denied = await me(a.key).expect(401);
      expect(denied.body).toEqual(UNAUTHORIZED);
      await me(key2).expect(200);
      const afterRevoke = (await org.owner.http.get(keysUrl).expect(200)).body.keys;
      expect(afterRevoke.find((k: any) => k.id === a.keyId).revoked_at).toMatch(ISO_RE);
      expect(afterRevoke.find((k: any) => k.id === minted.body.apiKeyId).revoked_at).toBeNull();
      // revoking again is a no-op; unknown key and another agent's key are 404
      await org.owner.http.delete(`${keysUrl}/${a.keyId}`).expect(200);
      await org.owner.http.delete(`${keysUrl}/${randomId()}`).expect(404);
      const b = await newAgent(t, org, {});
      await org.owner.http.delete(`${keysUrl}/${b.keyId}`).expect(404);
      await me(b.key).expect(200);

      const rotated = await org.owner.http.post(`${base()}/agents/${a.id}/rotate`).expect(201);
      expect(rotated.body).toEqual({
        key: { id: rotated.body.apiKeyId, key_prefix: rotated.body.apiKey.slice(0, 17), created_at: expect.stringMatching(ISO_RE) },
        apiKey: expect.stringMatching(KEY_RE),
        apiKeyId: expect.stringMatching(UUID_RE),
      });
      expect((await me(key2).expect(401)).body).toEqual(UNAUTHORIZED);
      const ctx = (await me(rotated.body.apiKey).expect(200)).body.auth;
      expect(ctx.agentId).toBe(a.id);
      const active = (await org.owner.http.get(keysUrl).expect(200)).body.keys.filter((k: any) => k.revoked_at === null);
      expect(active.map((k: any) => k.id)).toEqual([rotated.body.apiKeyId]);
      const hashes = await t.db.query('SELECT key_hash FROM api_keys WHERE org_id = $1 AND id = $2', [org.id, rotated.body.apiKeyId]);
      expect(Buffer.compare(hashes[0].key_hash, sha256(rotated.body.apiKey))).toBe(0);
    });

    it('key management is for humans who manage the agent (others 404, agents 403)', async () => {
      const a = await newAgent(t, org, {});
      const other = await newAgent(t, org, { role: 'admin' });
      for (const [method, path] of [
        ['get', `/agents/${a.id}/keys`],
        ['post', `/agents/${a.id}/keys`],
        ['delete', `/agents/${a.id}/keys/${a.keyId}`],
        ['post', `/agents/${a.id}/rotate`],
        ['delete', `/agents/${a.id}`],
      ] as const) {
        // a member who neither created nor owns the agent: concealed
        const r = await (member.http as any)[method](`${base()}${path}`).expect(404);
        expect(r.body.code).toBe('not_found');
        // an admin agent key: humans only
        await (bearer(t, other.key) as any)[method](`${base()}${path}`).expect(403);
        // non-UUID ids are 404
        await (org.owner.http as any)[method](`${base()}${path.replace(a.id, 'nope')}`).expect(404);
      }
      await me(a.key).expect(200);
    });

    it('the creator and the personal owner manage their agents', async () => {
      const scoped = await member.http
        .post(`${base()}/agents`)
        .send({ name: 'MyScoped', projectIds: [p2.id] })
        .expect(201);
      const personal = await member.http.post(`${base()}/agents`).send({ name: 'MyPersonal', personal: true }).expect(201);
      for (const a of [scoped.body.agent, personal.body.agent]) {
        await member.http.get(`${base()}/agents/${a.id}/keys`).expect(200);
        const k = await member.http.post(`${base()}/agents/${a.id}/keys`).expect(201);
        await me(k.body.apiKey).expect(200);
      }
      // an org admin (human) manages any agent
      await admin.http.get(`${base()}/agents/${personal.body.agent.id}/keys`).expect(200);
    });
  });

  describe('API key resolution (the key home remembered per process)', () => {
    it('a used key stops working when its organization is deleted, and a key of another organization is unaffected', async () => {
      const gone = await newOrg(t);
      const a = await newAgent(t, gone, {});
      const other = await newAgent(t, org, {});
      // resolved once (its organization and key id are now remembered by this process)
      expect((await me(a.key).expect(200)).body.auth.orgId).toBe(gone.id);
      await me(other.key).expect(200);
      await gone.owner.http.delete(`/api/orgs/${gone.id}`).expect(200);
      expect((await me(a.key).expect(401)).body).toEqual(UNAUTHORIZED);
      const rows = await t.db.query('SELECT count(*)::int AS n FROM api_key_lookup WHERE org_id = $1', [gone.id]);
      expect(rows[0].n).toBe(0);
      await me(other.key).expect(200);
    });

    it('a revoked key, then a removed agent member: each denied on the very next request after use', async () => {
      const a = await newAgent(t, org, {});
      for (let i = 0; i < 3; i++) await me(a.key).expect(200);
      await t.db.query('UPDATE api_keys SET revoked_at = now() WHERE org_id = $1 AND id = $2', [org.id, a.keyId]);
      expect((await me(a.key).expect(401)).body).toEqual(UNAUTHORIZED);
      const b = await newAgent(t, org, {});
      await me(b.key).expect(200);
      await t.db.query('UPDATE members SET removed_at = now() WHERE org_id = $1 AND id = $2', [org.id, b.id]);
      expect((await me(b.key).expect(401)).body).toEqual(UNAUTHORIZED);
    });
  });

  describe('DELETE /agents/:agentId', () => {
    it('revokes the agent: keys fail on the next request, it leaves every list, its keys are revoked', async () => {
      const a = await newAgent(t, org, { projectIds: [p1.id] });
      const k2 = (await org.owner.http.post(`${base()}/agents/${a.id}/keys`).expect(201)).body.apiKey;
      await me(a.key).expect(200);
      await org.owner.http.delete(`${base()}/agents/${a.id}`).expect(200, { success: true });
      expect((await me(a.key).expect(401)).body).toEqual(UNAUTHORIZED);
      expect((await me(k2).expect(401)).body).toEqual(UNAUTHORIZED);
      const rows = await t.db.query('SELECT removed_at FROM members WHERE org_id = $1 AND id = $2', [org.id, a.id]);
      expect(rows[0].removed_at).not.toBeNull();
      const active = await t.db.query('SELECT count(*)::int AS n FROM api_keys WHERE org_id = $1 AND member_id = $2 AND revoked_at IS NULL', [org.id, a.id]);
      expect(active[0].n).toBe(0);
      for (const path of ['/agents?limit=100', '/agents/manageable?limit=100', '/agents/workforce?limit=100']) {
        const body = (await org.owner.http.get(`${base()}${path}`).expect(200)).body;
        expect(body.agents.map((x: any) => x.id)).not.toContain(a.id);
      }
      await org.owner.http.delete(`${base()}/agents/${a.id}`).expect(404);
      await org.owner.http.get(`${base()}/agents/${a.id}/keys`).expect(404);
    });

    it('the creator may revoke; a member may not revoke others’ agents; agents may not revoke (403)', async () => {
      const mine = await member.http.post(`${base()}/agents`).send({ name: 'Temp', personal: true }).expect(201);
      const theirs = await newAgent(t, org, {});
      await member.http.delete(`${base()}/agents/${theirs.id}`).expect(404);
      await bearer(t, mine.body.apiKey).delete(`${base()}/agents/${theirs.id}`).expect(403);
      await member.http.delete(`${base()}/agents/${mine.body.agent.id}`).expect(200);
      await me(theirs.key).expect(200);
    });
  });

  describe('PATCH /agents/:agentId/projects', () => {
    it('replaces a project-scoped agent’s projects; applies on the next request with the same key', async () => {
      const a = await newAgent(t, org, { projectIds: [p1.id] });
      const res = await org.owner.http
        .patch(`${base()}/agents/${a.id}/projects`)
        .send({ projectIds: [p2.id, p3.id] })
        .expect(200);
      expect(res.body.agent).toMatchObject({ id: a.id, scope: 'project', role: 'guest' });
      expect([...res.body.agent.project_ids].sort()).toEqual([p2.id, p3.id].sort());
      const ctx = (await me(a.key).expect(200)).body.auth;
      expect(sortAccess(ctx.projectAccess)).toEqual(sortAccess([p2, p3].map((p) => ({ projectId: p.id, accessLevel: 'edit' }))));
      const snake = await org.owner.http
        .patch(`${base()}/agents/${a.id}/projects`)
        .send({ project_ids: [p1.id] })
        .expect(200);
      expect(snake.body.agent.project_ids).toEqual([p1.id]);
    });

    it('needs project admin on every added and removed project; validation and scope rules', async () => {
      const a = (
        await member.http
          .post(`${base()}/agents`)
          .send({ name: 'M', projectIds: [p2.id] })
          .expect(201)
      ).body.agent;
      await member.http
        .patch(`${base()}/agents/${a.id}/projects`)
        .send({ projectIds: [p2.id, p1.id] })
        .expect(403);
      await member.http
        .patch(`${base()}/agents/${a.id}/projects`)
        .send({ projectIds: [p2.id, randomId()] })
        .expect(404);
      // unchanged projects need nothing beyond managing the agent
      await member.http
        .patch(`${base()}/agents/${a.id}/projects`)
        .send({ projectIds: [p2.id] })
        .expect(200);
      // the owner moves it to p1 too (member has only view there): the agent now holds more than the
      // member, who no longer manages it (404, as any unmanageable agent; agents-privilege.e2e-spec.ts)
      await org.owner.http
        .patch(`${base()}/agents/${a.id}/projects`)
        .send({ projectIds: [p1.id, p2.id] })
        .expect(200);
      for (const projectIds of [[p2.id], [p1.id, p2.id]]) {
        await member.http.patch(`${base()}/agents/${a.id}/projects`).send({ projectIds }).expect(404);
      }
      const malformed = [{ projectIds: null }, { project_ids: null }, { projectIds: [null] }, { projectIds: [p1.id, 5] }]; // null was a TypeError (500)
      for (const body of [{}, { projectIds: [] }, { projectIds: 'x' }, { projectIds: ['nope'] }, { projectIds: [p1.id], project_ids: [p2.id] }, ...malformed]) {
        const r = await org.owner.http.patch(`${base()}/agents/${a.id}/projects`).send(body).expect(400);
        expect(r.body.code).toBe('validation_failed');
      }
      const orgAgent = await newAgent(t, org, {});
      await org.owner.http
        .patch(`${base()}/agents/${orgAgent.id}/projects`)
        .send({ projectIds: [p1.id] })
        .expect(400);
      const personal = (await member.http.post(`${base()}/agents`).send({ name: 'P', personal: true }).expect(201)).body.agent;
      await member.http
        .patch(`${base()}/agents/${personal.id}/projects`)
        .send({ projectIds: [p2.id] })
        .expect(400);
      const other = await newAgent(t, org, { projectIds: [p2.id] });
      await member.http
        .patch(`${base()}/agents/${other.id}/projects`)
        .send({ projectIds: [p2.id] })
        .expect(404);
      await bearer(t, other.key)
        .patch(`${base()}/agents/${other.id}/projects`)
        .send({ projectIds: [p2.id] })
        .expect(403);
    });
  });

  describe('GET /agents', () => {
    it('owners and admins list active agents with the newest active key prefix, never a key', async () => {
      const a = await newAgent(t, org, { projectIds: [p3.id] });
      const newer = (await org.owner.http.post(`${base()}/agents/${a.id}/keys`).expect(201)).body.apiKey as string;
      const res = await admin.http.get(`${base()}/agents?limit=100`).expect(200);
      expect(res.body).toMatchObject({ total: expect.any(Number), limit: 100, offset: 0 });
      const row = res.body.agents.find((x: any) => x.id === a.id);
      expect(row).toEqual({ ...a.body.agent, key_prefix: newer.slice(0, 17) });
      expect(JSON.stringify(res.body)).not.toContain(newer);
      expect(JSON.stringify(res.body)).not.toContain(a.key);
      expect(JSON.stringify(res.body)).not.toMatch(/sk_service_[A-Za-z0-9_-]{20,}/);
      expect(res.body.agents.every((x: any) => x.type === 'agent')).toBe(true);
      const env = await org.owner.http.get(`${base()}/agents?shape=envelope&limit=1`).expect(200);
      expect(env.body).toMatchObject({ resource: 'agents', items: [expect.any(Object)], limit: 1, offset: 0, truncated: true, nextOffset: 1 });
    });

    it('plain members, guests and member agents get 403 (the check is by live role: an admin agent may list)', async () => {
      await member.http.get(`${base()}/agents`).expect(403);
      await guest.http.get(`${base()}/agents`).expect(403);
      const a = await newAgent(t, org, {});
      await bearer(t, a.key).get(`${base()}/agents`).expect(403);
      await t.db.query(`UPDATE members SET role = 'admin' WHERE org_id = $1 AND id = $2`, [org.id, a.id]);
      const listed = await bearer(t, a.key).get(`${base()}/agents?limit=100`).expect(200);
      expect(JSON.stringify(listed.body)).not.toContain(a.key);
      await org.owner.http.get(`${base()}/agents?limit=0`).expect(400);
      await org.owner.http.get(`${base()}/agents?offset=-1`).expect(400);
    });
  });

  describe('GET /agents/manageable', () => {
    it('rows carry usage of the selected (newest active) key and activity over all active keys', async () => {
      const a = await newAgent(t, org, { projectIds: [p1.id] });
      const url = `${base()}/agents/manageable?limit=100`;
      const find = async () => (await org.owner.http.get(url).expect(200)).body.agents.find((x: any) => x.id === a.id);
      let row = await find();
      expect(row).toEqual({
        id: a.id,
        member_id: a.id,
        display_name: a.body.agent.display_name,
        role: 'guest',
        scope: 'project',
        project_ids: [p1.id],
        projects: [{ id: p1.id, name: p1.name }],
        created_at: a.body.agent.created_at,
        key_prefix: a.key.slice(0, 17),
        last_used_at: null,
        activity_last_used_at: null,
      });
      await me(a.key).expect(200);
      // last_used_at is written asynchronously after authentication
      for (let i = 0; i < 50 && !row.last_used_at; i++) {
        await new Promise((r) => setTimeout(r, 50));
        row = await find();
      }
      expect(row.last_used_at).toMatch(ISO_RE);
      expect(row.activity_last_used_at).toBe(row.last_used_at);
      // a newer unused key becomes the selected key; activity still shows the older key's use
      const newer = (await org.owner.http.post(`${base()}/agents/${a.id}/keys`).expect(201)).body.apiKey as string;
      row = await find();
      expect(row.key_prefix).toBe(newer.slice(0, 17));
      expect(row.last_used_at).toBeNull();
      expect(row.activity_last_used_at).toMatch(ISO_RE);
      const body = JSON.stringify((await org.owner.http.get(url).expect(200)).body);
      expect(body).not.toContain(newer);
      expect(body).not.toContain(a.key);
    });

    it('members see only agents they created or own and still manage; project names only for projects they can read', async () => {
      const org2 = await newOrg(t);
      const [q1, q2] = [await newProject(t, org2), await newProject(t, org2)];
      const m = await newUser(t, 'm2');
      const mId = await addMember(t, org2, m, 'member');
      const g = await newUser(t, 'g2');
      const gId = await addMember(t, org2, g, 'guest');
      await org2.owner.http.post(`/api/orgs/${org2.id}/projects/${q1.id}/members`).send({ memberId: gId, accessLevel: 'admin' }).expect(201);
      const ownerAgent = await newAgent(t, org2, {});
      const personal = (await m.http.post(`/api/orgs/${org2.id}/agents`).send({ name: 'mp', personal: true }).expect(201)).body.agent;
      const byGuest = (
        await g.http
          .post(`/api/orgs/${org2.id}/agents`)
          .send({ name: 'gp', projectIds: [q1.id] })
          .expect(201)
      ).body.agent;
      await org2.owner.http
        .patch(`/api/orgs/${org2.id}/agents/${byGuest.id}/projects`)
        .send({ projectIds: [q1.id, q2.id] })
        .expect(200);

      const all = (await org2.owner.http.get(`/api/orgs/${org2.id}/agents/manageable`).expect(200)).body;
      expect(all.agents.map((x: any) => x.id).sort()).toEqual([ownerAgent.id, personal.id, byGuest.id].sort());
      expect(all.total).toBe(3);
      const mine = (await m.http.get(`/api/orgs/${org2.id}/agents/manageable`).expect(200)).body;
      expect(mine.agents.map((x: any) => x.id)).toEqual([personal.id]);
      expect(mine.agents[0]).toMatchObject({ scope: 'personal', role: 'member', project_ids: [], projects: [] });
      // the guest's agent now reaches q2, which the guest cannot see: it holds more than the guest,
      // who no longer manages it (and so never learns of q2 through it)
      const gs = (await g.http.get(`/api/orgs/${org2.id}/agents/manageable`).expect(200)).body;
      expect(gs).toMatchObject({ agents: [], total: 0 });
      expect(JSON.stringify(gs)).not.toContain(q2.id);
      await org2.owner.http
        .patch(`/api/orgs/${org2.id}/agents/${byGuest.id}/projects`)
        .send({ projectIds: [q1.id] })
        .expect(200);
      const back = (await g.http.get(`/api/orgs/${org2.id}/agents/manageable`).expect(200)).body;
      expect(back.agents.map((x: any) => x.id)).toEqual([byGuest.id]);
      expect(back.agents[0]).toMatchObject({ project_ids: [q1.id], projects: [{ id: q1.id, name: q1.name }] });
      // agents may call it; even an admin agent manages none
      const adminAgent = await newAgent(t, org2, { role: 'admin' });
      const asAgent = (await bearer(t, adminAgent.key).get(`/api/orgs/${org2.id}/agents/manageable`).expect(200)).body;
      expect(asAgent.agents).toEqual([]);
      expect(mId).toMatch(UUID_RE);
    });
  });

  describe('GET /agents/workforce', () => {
    let w: TestOrg;
    let wp1: { id: string; name: string };
    let wp2: { id: string; name: string };
    let wm: TestUser;
    let wmId: string;
    let orgAgent: Awaited<ReturnType<typeof newAgent>>;
    let scopedP1: Awaited<ReturnType<typeof newAgent>>;
    let mPersonal: any;
    let mScoped: any;
    const wurl = (q = '') => `/api/orgs/${w.id}/agents/workforce${q}`;

    beforeAll(async () => {
      w = await newOrg(t);
      wp1 = await newProject(t, w);
      wp2 = await newProject(t, w);
      wm = await newUser(t, 'wm');
      wmId = await addMember(t, w, wm, 'member');
      await w.owner.http.post(`/api/orgs/${w.id}/projects/${wp2.id}/members`).send({ memberId: wmId, accessLevel: 'admin' }).expect(201);
      orgAgent = await newAgent(t, w, { role: 'admin', name: 'OrgAdminBot' });
      scopedP1 = await newAgent(t, w, { projectIds: [wp1.id], name: 'P1Bot' });
      mPersonal = (await wm.http.post(`/api/orgs/${w.id}/agents`).send({ name: 'MyHelper', personal: true }).expect(201)).body;
      mScoped = (
        await wm.http
          .post(`/api/orgs/${w.id}/agents`)
          .send({ name: 'P2Bot', projectIds: [wp2.id] })
          .expect(201)
      ).body;
    });

    it('without a filter even the owner sees only the agents they created or own (interface.md); rows have exactly the documented fields', async () => {
      const res = await w.owner.http.get(wurl()).expect(200);
      expect(res.body).toEqual({ agents: expect.any(Array), total: 2, limit: 50, offset: 0, nextOffset: null, truncated: false });
      const byId = new Map(res.body.agents.map((a: any) => [a.id, a]));
      expect([...byId.keys()].sort()).toEqual([orgAgent.id, scopedP1.id].sort());
      const fields = [
        'avatar_url',
        'capabilities',
        'created_at',
        'display_name',
        'id',
        'key_prefix',
        'last_used_at',
        'owner',
        'project_ids',
        'projects',
        'role',
        'scope',
      ];
      for (const a of res.body.agents) expect(Object.keys(a).sort()).toEqual(fields);
      expect(byId.get(orgAgent.id)).toEqual({
        id: orgAgent.id,
        display_name: 'OrgAdminBot',
        avatar_url: null,
        role: 'admin',
        created_at: expect.stringMatching(ISO_RE),
        last_used_at: null,
        project_ids: [],
        projects: [],
        owner: null,
        scope: 'organization',
        capabilities: ['read_projects', 'write_issues', 'manage_projects', 'manage_organization'],
        key_prefix: orgAgent.key.slice(0, 17),
      });
      expect(byId.get(scopedP1.id)).toMatchObject({
        role: 'guest',
        scope: 'project',
        project_ids: [wp1.id],
        projects: [{ id: wp1.id, name: wp1.name }],
        capabilities: ['read_projects', 'write_issues'],
        owner: null,
      });
      // with a project filter the owner (admin on every project) sees every agent with access to it
      const all = await w.owner.http.get(wurl(`?projectId=${wp2.id}`)).expect(200);
      const p2 = new Map(all.body.agents.map((a: any) => [a.id, a]));
      expect(p2.get(mPersonal.agent.id)).toMatchObject({
        scope: 'personal',
        role: 'member',
        owner: { id: wmId, display_name: wm.name },
        capabilities: ['read_projects', 'write_issues', 'manage_projects'], // the owner's access: admin on wp2
      });
      const scopes = new Set([...res.body.agents, ...all.body.agents].map((a: any) => a.scope));
      expect(scopes).toEqual(new Set(['organization', 'project', 'personal']));
      const text = JSON.stringify([res.body, all.body]);
      for (const secret of [orgAgent.key, scopedP1.key, mPersonal.apiKey, mScoped.apiKey, w.owner.email, wm.email, wm.userId, w.owner.userId])
        expect(text).not.toContain(secret);
    });

    it('a plain member without a filter sees only the agents they created or own', async () => {
      const res = await wm.http.get(wurl()).expect(200);
      expect(res.body.agents.map((a: any) => a.id).sort()).toEqual([mPersonal.agent.id, mScoped.agent.id].sort());
      expect(res.body.total).toBe(2);
      for (const a of res.body.agents) expect(a.key_prefix).toMatch(/^sk_service_.{6}$/);
    });

    it('projectId filter: project admins see agents with access to the project; key_prefix only where they manage keys', async () => {
      const res = await wm.http.get(wurl(`?projectId=${wp2.id}`)).expect(200);
      const ids = res.body.agents.map((a: any) => a.id);
      // the admin org agent (admin everywhere), the member's personal agent (owner has admin on wp2) and its wp2 agent; not the wp1-only agent
      expect(ids.sort()).toEqual([orgAgent.id, mPersonal.agent.id, mScoped.agent.id].sort());
      const org1 = res.body.agents.find((a: any) => a.id === orgAgent.id);
      expect('key_prefix' in org1).toBe(false);
      expect(res.body.agents.find((a: any) => a.id === mScoped.agent.id).key_prefix).toBe(mScoped.apiKey.slice(0, 17));
      // readable without admin: 403; unknown project: 404; not a UUID: 400
      await wm.http.get(wurl(`?projectId=${wp1.id}`)).expect(403);
      await wm.http.get(wurl(`?projectId=${randomId()}`)).expect(404);
      await wm.http.get(wurl('?projectId=nope')).expect(400);
      const owner = await w.owner.http.get(wurl(`?project_id=${wp1.id}`)).expect(200);
      expect(owner.body.agents.map((a: any) => a.id)).toContain(scopedP1.id);
      expect(owner.body.agents.map((a: any) => a.id)).not.toContain(mScoped.agent.id);
    });

    it('an unreadable project is 404 for a guest', async () => {
      const g = await newUser(t, 'wg');
      await addMember(t, w, g, 'guest');
      await g.http.get(wurl(`?projectId=${wp1.id}`)).expect(404);
      const own = await g.http.get(wurl()).expect(200);
      expect(own.body).toMatchObject({ agents: [], total: 0, nextOffset: null, truncated: false });
    });

    it('pagination: limit/offset, total, nextOffset, truncated; bad values 400; above 100 clamped', async () => {
      const q = (extra: string) => wurl(`?projectId=${wp2.id}&${extra}`); // owner: 3 agents with access to wp2
      const first = (await w.owner.http.get(q('limit=2')).expect(200)).body;
      expect(first).toMatchObject({ total: 3, limit: 2, offset: 0, nextOffset: 2, truncated: true });
      expect(first.agents).toHaveLength(2);
      const last = (await w.owner.http.get(q('limit=2&offset=2')).expect(200)).body;
      expect(last).toMatchObject({ total: 3, limit: 2, offset: 2, nextOffset: null, truncated: false });
      expect(last.agents).toHaveLength(1);
      expect(new Set([...first.agents, ...last.agents].map((a: any) => a.id)).size).toBe(3);
      const filtered = (await wm.http.get(wurl(`?projectId=${wp2.id}&limit=1&offset=1`)).expect(200)).body;
      expect(filtered).toMatchObject({ total: 3, limit: 1, offset: 1, nextOffset: 2, truncated: true });
      expect((await w.owner.http.get(wurl('?limit=500')).expect(200)).body.limit).toBe(100);
      for (const q of ['?limit=0', '?limit=-1', '?limit=abc', '?limit=1.5', '?offset=-1', '?offset=x', '?limit=1&limit=2']) {
        const r = await w.owner.http.get(wurl(q)).expect(400);
        expect(r.body.code).toBe('validation_failed');
      }
    });

    it('humans only: agent keys get 403, even admin agents', async () => {
      const r = await bearer(t, orgAgent.key).get(wurl()).expect(403);
      expect(r.body.code).toBe('forbidden');
      await bearer(t, mPersonal.apiKey).get(wurl()).expect(403);
    });
  });

  describe('authentication and concealment', () => {
    it('no credentials: 401 on every route', async () => {
      const a = await newAgent(t, org, {});
      for (const [method, path] of [
        ['get', '/agents'],
        ['post', '/agents'],
        ['get', '/agents/manageable'],
        ['get', '/agents/workforce'],
        ['delete', `/agents/${a.id}`],
        ['patch', `/agents/${a.id}/projects`],
        ['get', `/agents/${a.id}/keys`],
        ['post', `/agents/${a.id}/keys`],
        ['delete', `/agents/${a.id}/keys/${a.keyId}`],
        ['post', `/agents/${a.id}/rotate`],
      ] as const) {
        const r = await (t.http() as any)[method](`${base()}${path}`).expect(401);
        expect(r.body).toEqual(UNAUTHORIZED);
      }
    });

    it('another organization’s members and agents get 404; agents of another organization are unknown here', async () => {
      const other = await newOrg(t);
      const foreignAgent = await newAgent(t, other, { role: 'admin' });
      const a = await newAgent(t, org, {});
      for (const [method, path] of [
        ['get', '/agents'],
        ['post', '/agents'],
        ['get', '/agents/manageable'],
        ['get', '/agents/workforce'],
        ['delete', `/agents/${a.id}`],
        ['get', `/agents/${a.id}/keys`],
        ['post', `/agents/${a.id}/rotate`],
      ] as const) {
        const send = (r: any) => (method === 'post' ? r.send({ name: 'x' }) : r);
        await send((other.owner.http as any)[method](`${base()}${path}`)).expect(404);
        await send((bearer(t, foreignAgent.key) as any)[method](`${base()}${path}`)).expect(404);
      }
      // this organization's owner cannot reach the other organization's agent through this organization
      await org.owner.http.delete(`${base()}/agents/${foreignAgent.id}`).expect(404);
      await org.owner.http.post(`${base()}/agents/${foreignAgent.id}/rotate`).expect(404);
      await me(foreignAgent.key).expect(200);
      await me(a.key).expect(200);
      await t.http().get(`/api/orgs/not-a-uuid/agents`).set('authorization', `Bearer ${a.key}`).expect(404);
    });
  });

  describe('plan limit', () => {
    let ft: TestApp;
    beforeAll(async () => {
      ft = await startTestApp({ SERVICE_DEFAULT_PLAN: 'free' });
    });
    afterAll(() => ft.close());

    it('the free plan allows 3 active agents: the 4th is 402; revoking one frees a seat', async () => {
      const fo = await newOrg(ft);
      const made = [];
      for (let i = 0; i < 3; i++) made.push(await newAgent(ft, fo, { name: uniq('free') }));
      const r = await fo.owner.http.post(`/api/orgs/${fo.id}/agents`).send({ name: 'fourth', personal: true }).expect(402);
      expect(r.body).toEqual({ error: 'Plan limit reached', code: 'PLAN_LIMIT_REACHED', resource: 'agents', plan: 'free', limit: 3, usage: 3 });
      const n = await ft.db.query(`SELECT count(*)::int AS n FROM members WHERE org_id = $1 AND type = 'agent'`, [fo.id]);
      expect(n[0].n).toBe(3);
      await fo.owner.http.delete(`/api/orgs/${fo.id}/agents/${made[0].id}`).expect(200);
      await fo.owner.http.post(`/api/orgs/${fo.id}/agents`).send({ name: 'fourth' }).expect(201);
    });
  });
});
