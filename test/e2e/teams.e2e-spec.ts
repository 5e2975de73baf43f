import { addMember, bearer, newAgent, newOrg, newProject, newUser, randomId, type TestOrg, type TestUser, uniq } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import { withoutDetails } from '../support/errors';

/**
 * Teams: reads for non-guests (guests 403), writes for owners/admins (403), team members must be
 * active members of the same organization, and team membership grants `edit` on projects the team
 * is assigned to, effective on the next request.
 */
describe('teams', () => {
  let t: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  let admin: TestUser;
  let member: TestUser;
  let guest: TestUser;
  let adminId: string;
  let memberId: string;
  let guestId: string;
  const base = () => `/api/orgs/${org.id}/teams`;

  beforeAll(async () => {
    t = await startTestApp();
    org = await newOrg(t);
    other = await newOrg(t);
    admin = await newUser(t, 'admin');
    member = await newUser(t, 'member');
    guest = await newUser(t, 'guest');
    adminId = await addMember(t, org, admin, 'admin');
    memberId = await addMember(t, org, member, 'member');
    guestId = await addMember(t, org, guest, 'guest');
  });
  afterAll(() => t.close());

  const createTeam = async (body: Record<string, unknown> = {}) =>
    (
      await org.owner.http
        .post(base())
        .send({ name: uniq('Team'), ...body })
        .expect(201)
    ).body.team;

  it('owner creates a team: 201 { team } with a derived slug, member_count 0 and ISO timestamps', async () => {
    const name = `Platform Team ${uniq('x')} (EU) Éclair`;
    const res = await org.owner.http
      .post(base())
      .send({ name: `  ${name}  `, description: 'Runs the platform' })
      .expect(201);
    expect(res.body).toEqual({
      team: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name,
        slug: expect.stringMatching(/^platform-team-x-[0-9a-f]{8}-eu-eclair$/),
        description: 'Runs the platform',
        member_count: 0,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    });
    expect(new Date(res.body.team.created_at).toISOString()).toBe(res.body.team.created_at);
    const got = await member.http.get(`${base()}/${res.body.team.id}`).expect(200);
    expect(got.body).toEqual(res.body);
    const rows = await t.db.query('SELECT org_id FROM teams WHERE id = $1', [res.body.team.id]);
    expect(rows).toEqual([{ org_id: org.id }]);
  });

  it('admins may create teams too; a name without letters or digits gets the slug "team…"', async () => {
    const res = await admin.http.post(base()).send({ name: '!!!' }).expect(201);
    expect(res.body.team.slug).toMatch(/^team(-\d+)?$/);
  });

  it('derived slugs that are taken get -2, -3; an explicit slug that is taken is 409; explicit slugs are lowercased', async () => {
    const name = `Design ${uniq('d')}`;
    const a = await createTeam({ name });
    const b = await createTeam({ name });
    const c = await createTeam({ name: name.toUpperCase() });
    expect(b.slug).toBe(`${a.slug}-2`);
    expect(c.slug).toBe(`${a.slug}-3`);

    const explicit = uniq('ops');
    const d = await createTeam({ slug: ` ${explicit.toUpperCase()} ` });
    expect(d.slug).toBe(explicit);
    const dup = await org.owner.http.post(base()).send({ name: 'Other', slug: explicit }).expect(409);
    expect(dup.body).toEqual({ error: expect.any(String), code: 'team_slug_taken' });

    // The same slug in another organization is fine.
    await other.owner.http.post(`/api/orgs/${other.id}/teams`).send({ name: 'Other', slug: explicit }).expect(201);

    for (const slug of ['Not A Slug', 'a--b', '-a', 'a_b', '', 'x'.repeat(101), 5]) {
      const r = await org.owner.http.post(base()).send({ name: 'Bad slug', slug }).expect(400);
      expect(r.body.code).toBe('validation_failed');
    }
  });

  it('concurrency: same-name creates all succeed with distinct slugs; duplicate member adds give one 201 and 409s (never 500)', async () => {
    const name = `Race ${uniq('r')}`;
    const created = await Promise.all(Array.from({ length: 5 }, () => org.owner.http.post(base()).send({ name })));
    expect(created.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    const slugs = created.map((r) => r.body.team.slug);
    expect(new Set(slugs).size).toBe(5);
    const team = created[0].body.team;
    const adds = await Promise.all(Array.from({ length: 4 }, () => org.owner.http.post(`${base()}/${team.id}/members`).send({ memberId })));
    expect(adds.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    const explicit = uniq('same');
    const ex = await Promise.all(Array.from({ length: 3 }, (_, i) => org.owner.http.post(base()).send({ name: `E${i}`, slug: explicit })));
    expect(ex.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    for (const r of ex.filter((x) => x.status === 409)) expect(r.body.code).toBe('team_slug_taken');
  });

  it('list: legacy { teams, total, limit, offset } by name, envelope with shape=envelope, limit/offset, bad paging 400', async () => {
    const o = await newOrg(t);
    for (const name of ['Charlie', 'alpha', 'Bravo']) await o.owner.http.post(`/api/orgs/${o.id}/teams`).send({ name }).expect(201);
    const res = await o.owner.http.get(`/api/orgs/${o.id}/teams`).expect(200);
    expect(res.body).toMatchObject({ total: 3, limit: 25, offset: 0 });
    expect(res.body.teams.map((x: { name: string }) => x.name)).toEqual(['alpha', 'Bravo', 'Charlie']);
    expect(res.body.teams[0]).toEqual(expect.objectContaining({ slug: 'alpha', member_count: 0, description: null }));

    const page = await o.owner.http.get(`/api/orgs/${o.id}/teams?limit=1&offset=1&shape=envelope`).expect(200);
    expect(page.body).toMatchObject({ resource: 'teams', total: 3, limit: 1, offset: 1, nextOffset: 2, truncated: true });
    expect(page.body.items.map((x: { name: string }) => x.name)).toEqual(['Bravo']);
    const cli = await o.owner.http.get(`/api/orgs/${o.id}/teams?response_shape=cli&offset=2`).expect(200);
    expect(cli.body).toMatchObject({ resource: 'teams', total: 3, nextOffset: null, truncated: false });
    const past = await o.owner.http.get(`/api/orgs/${o.id}/teams?offset=10`).expect(200);
    expect(past.body).toMatchObject({ teams: [], total: 3 });
    expect((await o.owner.http.get(`/api/orgs/${o.id}/teams?limit=500`).expect(200)).body.limit).toBe(100);
    for (const q of ['limit=0', 'limit=abc', 'offset=-1', 'shape=weird', 'limit=1&limit=2']) {
      await o.owner.http.get(`/api/orgs/${o.id}/teams?${q}`).expect(400);
    }
  });

  it('reads: members may read; guests get 403 on every team read (they must not see the org structure)', async () => {
    const team = await createTeam();
    await member.http.get(base()).expect(200);
    await member.http.get(`${base()}/${team.id}`).expect(200);
    await member.http.get(`${base()}/${team.id}/members`).expect(200);
    for (const path of [base(), `${base()}/${team.id}`, `${base()}/${team.id}/members`, `${base()}/${randomId()}`]) {
      const r = await guest.http.get(path).expect(403);
      expect(r.body.code).toBe('forbidden');
    }
  });

  it('writes are owner/admin only: members and guests get 403 and nothing changes', async () => {
    const team = await createTeam();
    await org.owner.http.post(`${base()}/${team.id}/members`).send({ memberId }).expect(201);
    for (const u of [member, guest]) {
      await u.http.post(base()).send({ name: 'Nope' }).expect(403);
      await u.http.patch(`${base()}/${team.id}`).send({ name: 'Nope' }).expect(403);
      await u.http.delete(`${base()}/${team.id}`).expect(403);
      await u.http.post(`${base()}/${team.id}/members`).send({ memberId: guestId }).expect(403);
      await u.http.delete(`${base()}/${team.id}/members/${memberId}`).expect(403);
    }
    const after = await org.owner.http.get(`${base()}/${team.id}`).expect(200);
    expect(after.body.team).toMatchObject({ name: team.name, member_count: 1 });
    // Admins may do all of it.
    await admin.http.patch(`${base()}/${team.id}`).send({ description: 'by admin' }).expect(200);
    await admin.http.delete(`${base()}/${team.id}/members/${memberId}`).expect(200);
    await admin.http.delete(`${base()}/${team.id}`).expect(200);
  });

  it('PATCH: rename keeps the slug; slug change, taken slug 409, description null clears, empty body 400', async () => {
    const team = await createTeam({ description: 'first' });
    const taken = await createTeam();
    const renamed = await org.owner.http.patch(`${base()}/${team.id}`).send({ name: '  Renamed  ' }).expect(200);
    expect(renamed.body.team).toMatchObject({ id: team.id, name: 'Renamed', slug: team.slug, description: 'first' });
    expect(Date.parse(renamed.body.team.updated_at)).toBeGreaterThanOrEqual(Date.parse(team.updated_at));

    const newSlug = uniq('renamed');
    const s = await org.owner.http.patch(`${base()}/${team.id}`).send({ slug: newSlug, description: null }).expect(200);
    expect(s.body.team).toMatchObject({ slug: newSlug, description: null });
    await org.owner.http.patch(`${base()}/${team.id}`).send({ slug: newSlug }).expect(200); // its own slug
    const conflict = await org.owner.http.patch(`${base()}/${team.id}`).send({ slug: taken.slug }).expect(409);
    expect(conflict.body.code).toBe('team_slug_taken');

    for (const body of [
      {},
      { name: null },
      { name: '' },
      { name: 7 },
      { slug: null },
      { slug: 'Bad Slug' },
      { description: 5 },
      { description: 'x'.repeat(5001) },
    ]) {
      const r = await org.owner.http.patch(`${base()}/${team.id}`).send(body).expect(400);
      expect(withoutDetails(r.body)).toEqual({ error: expect.any(String), code: 'validation_failed' });
    }
    await org.owner.http.patch(`${base()}/${randomId()}`).send({ name: 'x' }).expect(404);
  });

  it('DELETE: 200 { success: true }, then the team and its memberships are gone (404)', async () => {
    const team = await createTeam();
    await org.owner.http.post(`${base()}/${team.id}/members`).send({ memberId }).expect(201);
    const res = await org.owner.http.delete(`${base()}/${team.id}`).expect(200);
    expect(res.body).toEqual({ success: true });
    await org.owner.http.get(`${base()}/${team.id}`).expect(404);
    await org.owner.http.delete(`${base()}/${team.id}`).expect(404);
    await org.owner.http.get(`${base()}/${team.id}/members`).expect(404);
    const rows = await t.db.query('SELECT 1 FROM team_members WHERE org_id = $1 AND team_id = $2', [org.id, team.id]);
    expect(rows).toHaveLength(0);
  });

  it("agents: an org agent with role member reads but cannot write; project-scoped agents (guests) 403; a personal agent follows its owner's live role", async () => {
    const team = await createTeam();
    const orgAgent = bearer(t, (await newAgent(t, org, { role: 'member' })).key);
    await orgAgent.get(base()).expect(200);
    await orgAgent.get(`${base()}/${team.id}/members`).expect(200);
    await orgAgent.post(base()).send({ name: 'By agent' }).expect(403);
    await orgAgent.post(`${base()}/${team.id}/members`).send({ memberId }).expect(403);

    const project = await newProject(t, org);
    const scoped = bearer(t, (await newAgent(t, org, { projectIds: [project.id] })).key);
    await scoped.get(base()).expect(403);
    await scoped.get(`${base()}/${team.id}`).expect(403);

    const human = await newUser(t, 'pa-owner');
    const humanId = await addMember(t, org, human, 'member');
    const created = await human.http
      .post(`/api/orgs/${org.id}/agents`)
      .send({ name: uniq('Personal'), personal: true })
      .expect(201);
    const personal = bearer(t, created.body.apiKey);
    await personal.get(`${base()}/${team.id}`).expect(200);
    await org.owner.http.patch(`/api/orgs/${org.id}/members/${humanId}`).send({ role: 'guest' }).expect(200);
    // a guest cannot own a personal agent: the demotion revoked its keys (docs/DECISIONS.md, "Agents")
    const r = await personal.get(`${base()}/${team.id}`).expect(401);
    expect(r.body.code).toBe('unauthorized');
    await personal.get(base()).expect(401);
  });

  it('malformed bodies are 400, never 500', async () => {
    const bad: unknown[] = [
      {},
      { name: 123 },
      { name: '   ' },
      { name: 'x'.repeat(101) },
      { name: null },
      { name: ['a'] },
      { name: 'ok', description: 'x'.repeat(5001) },
      { name: 'ok', description: 1 },
    ];
    for (const body of bad) {
      const r = await org.owner.http
        .post(base())
        .send(body as object)
        .expect(400);
      expect(withoutDetails(r.body)).toEqual({ error: expect.any(String), code: 'validation_failed' });
    }
    await org.owner.http.post(base()).set('content-type', 'application/json').send('{"name": ').expect(400);
    await org.owner.http.post(base()).set('content-type', 'application/json').send('[]').expect(400);
    await org.owner.http.post(base()).set('content-type', 'application/json').send('"team"').expect(400);
    await org.owner.http.post(base()).send({ name: 'nul\u0000byte' }).expect(400);
  });

  it('401 without credentials on every route', async () => {
    const id = randomId();
    const anon = t.http();
    const calls = [
      anon.get(base()),
      anon.post(base()).send({ name: 'x' }),
      anon.get(`${base()}/${id}`),
      anon.patch(`${base()}/${id}`).send({ name: 'x' }),
      anon.delete(`${base()}/${id}`),
      anon.get(`${base()}/${id}/members`),
      anon.post(`${base()}/${id}/members`).send({ memberId }),
      anon.delete(`${base()}/${id}/members/${memberId}`),
    ];
    for (const c of calls) {
      const r = await c.expect(401);
      expect(r.body).toEqual({ error: 'Unauthorized', code: 'unauthorized' });
    }
  });

  it('concealment: other organizations, unknown and non-UUID ids are 404', async () => {
    const team = await createTeam();
    const otherTeam = (await other.owner.http.post(`/api/orgs/${other.id}/teams`).send({ name: 'B team' }).expect(201)).body.team;
    // An outsider cannot reach org A at all.
    await other.owner.http.get(base()).expect(404);
    await other.owner.http.get(`${base()}/${team.id}`).expect(404);
    await other.owner.http.post(base()).send({ name: 'x' }).expect(404);
    // Org B's team through org A's path (by org A's owner) is 404 on every route.
    const p = `${base()}/${otherTeam.id}`;
    await org.owner.http.get(p).expect(404);
    await org.owner.http.patch(p).send({ name: 'x' }).expect(404);
    await org.owner.http.delete(p).expect(404);
    await org.owner.http.get(`${p}/members`).expect(404);
    await org.owner.http.post(`${p}/members`).send({ memberId }).expect(404);
    await org.owner.http.delete(`${p}/members/${memberId}`).expect(404);
    // Non-UUID ids.
    for (const path of [`${base()}/not-a-uuid`, `${base()}/not-a-uuid/members`, `/api/orgs/not-a-uuid/teams`]) {
      const r = await org.owner.http.get(path).expect(404);
      expect(r.body.code).toBe('not_found');
    }
    await org.owner.http.delete(`${base()}/${team.id}/members/nope`).expect(404);
    // Org B's team is untouched.
    expect((await other.owner.http.get(`/api/orgs/${other.id}/teams/${otherTeam.id}`).expect(200)).body.team.name).toBe('B team');
  });

  it('team members: add (alias member_id), list { members }, duplicate 409, count, remove', async () => {
    const team = await createTeam();
    const p = `${base()}/${team.id}/members`;
    const added = await org.owner.http.post(p).send({ memberId }).expect(201);
    expect(added.body).toEqual({ member: { id: memberId, display_name: member.name, type: 'human', role: 'member' } });
    await org.owner.http.post(p).send({ member_id: adminId }).expect(201);
    await org.owner.http.post(p).send({ memberId: org.ownerMemberId, member_id: org.ownerMemberId }).expect(201);

    const dup = await org.owner.http.post(p).send({ memberId: memberId.toUpperCase() }).expect(409);
    expect(dup.body).toEqual({ error: expect.any(String), code: 'already_team_member' });

    const list = await member.http.get(p).expect(200);
    expect(list.body).toMatchObject({ total: 3, limit: 25, offset: 0 });
    expect(list.body.members).toHaveLength(3);
    expect(list.body.members).toContainEqual({ id: memberId, display_name: member.name, type: 'human', role: 'member' });
    expect(list.body.members).toContainEqual({ id: adminId, display_name: admin.name, type: 'human', role: 'admin' });
    const env = await member.http.get(`${p}?shape=envelope&limit=2`).expect(200);
    expect(env.body).toMatchObject({ resource: 'members', total: 3, limit: 2, nextOffset: 2, truncated: true });
    expect(env.body.items).toHaveLength(2);

    expect((await member.http.get(`${base()}/${team.id}`).expect(200)).body.team.member_count).toBe(3);

    const removed = await org.owner.http.delete(`${p}/${adminId}`).expect(200);
    expect(removed.body).toEqual({ success: true });
    await org.owner.http.delete(`${p}/${adminId}`).expect(404);
    await org.owner.http.delete(`${p}/${randomId()}`).expect(404);
    expect((await member.http.get(`${base()}/${team.id}`).expect(200)).body.team.member_count).toBe(2);
  });

  it('team members must be active members of the same organization (404 otherwise); bad memberId is 400', async () => {
    const team = await createTeam();
    const p = `${base()}/${team.id}/members`;
    // A member of another organization, an unknown id.
    const r1 = await org.owner.http.post(p).send({ memberId: other.ownerMemberId }).expect(404);
    expect(r1.body.code).toBe('not_found');
    await org.owner.http.post(p).send({ memberId: randomId() }).expect(404);
    // A removed member.
    const leaver = await newUser(t, 'leaver');
    const leaverId = await addMember(t, org, leaver, 'member');
    await org.owner.http.post(p).send({ memberId: leaverId }).expect(201);
    await org.owner.http.delete(`/api/orgs/${org.id}/members/${leaverId}`).expect(200);
    const list = await org.owner.http.get(p).expect(200);
    expect(list.body.members.map((m: { id: string }) => m.id)).not.toContain(leaverId);
    expect((await org.owner.http.get(`${base()}/${team.id}`).expect(200)).body.team.member_count).toBe(0);
    const stranger = await newUser(t, 'stranger');
    const strangerId = await addMember(t, org, stranger, 'member');
    await org.owner.http.delete(`/api/orgs/${org.id}/members/${strangerId}`).expect(200);
    await org.owner.http.post(p).send({ memberId: strangerId }).expect(404);
    // Malformed.
    for (const body of [{}, { memberId: 'nope' }, { memberId: 5 }, { member_id: '' }, { memberId: memberId, member_id: adminId }]) {
      const r = await org.owner.http.post(p).send(body).expect(400);
      expect(r.body.code).toBe('validation_failed');
    }
    await org.owner.http.post(p).set('content-type', 'application/json').send('{bad json').expect(400);
  });

  it('team membership grants edit on projects the team is assigned to, effective on the next request', async () => {
    const project = await newProject(t, org);
    const dev = await newUser(t, 'dev');
    const devId = await addMember(t, org, dev, 'member');
    const team = await createTeam();
    await org.owner.http.post(`/api/orgs/${org.id}/projects/${project.id}/teams`).send({ teamId: team.id }).expect(201);

    // Appending a board column needs `edit` on the project.
    let n = 0;
    const edit = () => dev.http.post(`/api/orgs/${org.id}/projects/${project.id}/board-columns`).send({ key: `stage_${++n}`, label: `Stage ${n}` });
    // A plain member can read but not write the project.
    await dev.http.get(`/api/orgs/${org.id}/projects/${project.id}`).expect(200);
    expect((await edit()).status).toBe(403);

    await org.owner.http.post(`${base()}/${team.id}/members`).send({ memberId: devId }).expect(201);
    expect((await edit()).status).toBe(201);

    await org.owner.http.delete(`${base()}/${team.id}/members/${devId}`).expect(200);
    expect((await edit()).status).toBe(403);

    // A guest in the team gains nothing (team grants apply to non-guests only).
    await org.owner.http.post(`${base()}/${team.id}/members`).send({ memberId: guestId }).expect(201);
    await guest.http.get(`/api/orgs/${org.id}/projects/${project.id}`).expect(404);

    // Deleting the team ends the grant too.
    await org.owner.http.post(`${base()}/${team.id}/members`).send({ memberId: devId }).expect(201);
    expect((await edit()).status).toBe(201);
    await org.owner.http.delete(`${base()}/${team.id}`).expect(200);
    expect((await edit()).status).toBe(403);
  });
});
