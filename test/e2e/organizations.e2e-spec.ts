import { startTestApp, type TestApp } from '../support/app';
import { addMember, newOrg, newUser, uniq } from '../support/factories';

describe('organizations and billing', () => {
  let t: TestApp;
  let free: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
    free = await startTestApp({ SERVICE_DEFAULT_PLAN: 'free' });
  });
  afterAll(async () => {
    await t.close();
    await free.close();
  });

  it('create makes the caller owner; list, get and auth context show it', async () => {
    const u = await newUser(t, 'creator');
    const res = await u.http.post('/api/orgs').send({ name: '  Acme Rockets  ', issue_prefix: 'ACME' }).expect(201);
    const org = res.body.organization;
    expect(org).toMatchObject({ name: 'Acme Rockets', issue_prefix: 'ACME', plan: 'unlimited', role: 'owner' });
    const list = await u.http.get('/api/orgs').expect(200);
    expect(list.body.organizations.map((o: { id: string }) => o.id)).toContain(org.id);
    const env = await u.http.get('/api/orgs?shape=envelope').expect(200);
    expect(env.body).toMatchObject({ resource: 'organizations', total: 1, nextOffset: null, truncated: false });
    await u.http.get(`/api/orgs/${org.id}`).expect(200);
    const me = await u.http.get('/api/auth/me').expect(200);
    expect(me.body.auth).toMatchObject({ type: 'human', userId: u.userId, orgId: org.id, role: 'owner' });
    const derived = await u.http.post('/api/orgs').send({ name: 'globex corporation' }).expect(201);
    expect(derived.body.organization.issue_prefix).toBe('GC');
  });

  it('bad input is 400; agents cannot create organizations', async () => {
    const u = await newUser(t, 'bad');
    for (const body of [
      {},
      { name: 123 },
      { name: '' },
      { name: 'x'.repeat(201) },
      { name: 'ok', issue_prefix: 'bad-prefix' },
      { name: 'ok', issue_prefix: 'A' },
    ]) {
      const r = await u.http.post('/api/orgs').send(body).expect(400);
      expect(r.body.code).toBe('validation_failed');
    }
    await u.http.get('/api/orgs?limit=-1').expect(400);
    await u.http.get('/api/orgs?limit=abc').expect(400);
  });

  it('non-members get 404 for every organization route; members cannot update; owners can', async () => {
    const org = await newOrg(t);
    const stranger = await newUser(t, 'stranger');
    for (const p of ['', '/members', '/billing', '/profile']) await stranger.http.get(`/api/orgs/${org.id}${p}`).expect(404);
    await stranger.http.patch(`/api/orgs/${org.id}`).send({ name: 'hijack' }).expect(404);
    await stranger.http.delete(`/api/orgs/${org.id}`).expect(404);
    await stranger.http.get('/api/orgs/not-a-uuid').expect(404);
    await t.http().get(`/api/orgs/${org.id}`).expect(401);
    const member = await newUser(t, 'member');
    await addMember(t, org, member, 'member');
    await member.http.patch(`/api/orgs/${org.id}`).send({ name: 'nope' }).expect(403);
    await member.http.delete(`/api/orgs/${org.id}`).expect(403);
    const ok = await org.owner.http.patch(`/api/orgs/${org.id}`).send({ name: 'Renamed', issuePrefix: 'RNM' }).expect(200);
    expect(ok.body.organization).toMatchObject({ name: 'Renamed', issue_prefix: 'RNM' });
    const rows = await t.db.query('SELECT name FROM organizations WHERE id = $1', [org.id]);
    expect(rows[0].name).toBe('Renamed');
  });

  it('delete (owner) removes everything of the organization', async () => {
    const org = await newOrg(t);
    const project = (
      await org.owner.http
        .post(`/api/orgs/${org.id}/projects`)
        .send({ name: uniq('p') })
        .expect(201)
    ).body.project;
    const agent = await org.owner.http
      .post(`/api/orgs/${org.id}/agents`)
      .send({ name: uniq('bot'), projectIds: [project.id] })
      .expect(201);
    const team = (
      await org.owner.http
        .post(`/api/orgs/${org.id}/teams`)
        .send({ name: uniq('team') })
        .expect(201)
    ).body.team;
    await org.owner.http.post(`/api/orgs/${org.id}/teams/${team.id}/members`).send({ memberId: org.ownerMemberId }).expect(201);
    await org.owner.http
      .post(`/api/orgs/${org.id}/labels`)
      .send({ name: uniq('label') })
      .expect(201);
    const member = await newUser(t, 'doomed');
    await addMember(t, org, member, 'member');
    // an agent key is not enough to delete the organization, nor is an admin
    await t.http().delete(`/api/orgs/${org.id}`).set('authorization', `Bearer ${agent.body.apiKey}`).expect(403);
    await member.http.delete(`/api/orgs/${org.id}`).expect(403);
    await org.owner.http.delete(`/api/orgs/${org.id}`).expect(200);
    await org.owner.http.get(`/api/orgs/${org.id}`).expect(404);
    await t.http().get('/api/auth/me').set('authorization', `Bearer ${agent.body.apiKey}`).expect(401);
    const tables = [
      'members',
      'projects',
      'board_columns',
      'board_views',
      'board_view_columns',
      'custom_views',
      'project_members',
      'teams',
      'team_members',
      'labels',
      'api_keys',
      'api_key_lookup', // the global key lookup goes with the organization's keys
      'issues',
    ];
    for (const table of tables) {
      const r = await t.db.query(`SELECT count(*)::int AS n FROM ${table} WHERE org_id = $1`, [org.id]);
      expect(r[0].n).toBe(0);
    }
  });

  it('billing shows plan, limits and live usage', async () => {
    const org = await newOrg(t);
    const b = await org.owner.http.get(`/api/orgs/${org.id}/billing`).expect(200);
    expect(b.body).toEqual({
      plan: 'unlimited',
      limits: { humans: null, agents: null, activeProjects: null, activeIssues: null },
      usage: { humans: 1, agents: 0, activeProjects: 0, activeIssues: 0 },
    });
    const forg = await newOrg(free);
    const fb = await forg.owner.http.get(`/api/orgs/${forg.id}/billing`).expect(200);
    expect(fb.body).toMatchObject({ plan: 'free', limits: { humans: 5, agents: 3, activeProjects: 3, activeIssues: 250 }, usage: { humans: 1 } });
  });

  it('free plan: the sixth human member is 402 with the plan-limit body, and nothing is added', async () => {
    const org = await newOrg(free);
    for (let i = 0; i < 4; i++) await addMember(free, org, await newUser(free, `h${i}`), 'member');
    const extra = await newUser(free, 'extra');
    const res = await org.owner.http.post(`/api/orgs/${org.id}/members`).send({ email: extra.email, role: 'member' }).expect(402);
    expect(res.body).toEqual({ error: 'Plan limit reached', code: 'PLAN_LIMIT_REACHED', resource: 'humans', plan: 'free', limit: 5, usage: 5 });
    const n = await free.db.query(`SELECT count(*)::int AS n FROM members WHERE org_id = $1 AND removed_at IS NULL`, [org.id]);
    expect(n[0].n).toBe(5);
  });

  it('concurrent member additions cannot exceed the free plan limit', async () => {
    const org = await newOrg(free);
    const users = await Promise.all(Array.from({ length: 8 }, (_, i) => newUser(free, `c${i}`)));
    const results = await Promise.all(users.map((u) => org.owner.http.post(`/api/orgs/${org.id}/members`).send({ email: u.email })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(4);
    expect(results.filter((r) => r.status === 402)).toHaveLength(4);
  });
});
