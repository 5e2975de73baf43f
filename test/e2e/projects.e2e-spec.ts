import { randomBytes } from 'node:crypto';
import { addMember, newOrg, newProject, newUser, randomId, uniq, type TestOrg, type TestUser } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import { withoutDetails } from '../support/errors';

/** A new account joined to `org` with `role`. */
async function join(t: TestApp, org: TestOrg, role: 'admin' | 'member' | 'guest'): Promise<{ user: TestUser; memberId: string }> {
  const user = await newUser(t, role);
  return { user, memberId: await addMember(t, org, user, role) };
}

describe('projects: create, defaults, read, update, delete', () => {
  let t: TestApp;
  let org: TestOrg;
  beforeAll(async () => {
    t = await startTestApp();
    org = await newOrg(t);
  });
  afterAll(() => t.close());

  const base = () => `/api/orgs/${org.id}/projects`;

  it('POST creates the project (201) with the four columns, the Default board view and three default custom views', async () => {
    const res = await org.owner.http
      .post(base())
      .send({ name: 'Web Platform', key: `W${randomBytes(3).toString('hex').toUpperCase()}`, description: 'The site', color: '#1a2B3c', icon: 'globe' })
      .expect(201);
    const p = res.body.project;
    expect(p).toMatchObject({ name: 'Web Platform', description: 'The site', color: '#1a2B3c', icon: 'globe', status: 'active', access_level: 'admin' });
    expect(p.slug).toMatch(/^web-platform(-\d+)?$/);
    expect(Object.keys(p).sort()).toEqual(
      ['access_level', 'color', 'created_at', 'description', 'icon', 'id', 'key', 'name', 'org_id', 'slug', 'status', 'updated_at'].sort(),
    );
    expect(new Date(p.created_at).toISOString()).toBe(p.created_at);

    const cols = await org.owner.http.get(`${base()}/${p.id}/board-columns`).expect(200);
    expect(cols.body.columns.map((c: any) => [c.key, c.label, c.position, c.description, c.issue_count])).toEqual([
      ['backlog', 'Backlog', 0, null, 0],
      ['todo', 'Todo', 1, null, 0],
      ['in_progress', 'In Progress', 2, null, 0],
      ['done', 'Done', 3, null, 0],
    ]);
    expect(cols.body.accepted_statuses).toEqual(['backlog', 'todo', 'in_progress', 'done', 'cancelled']);

    const views = await org.owner.http.get(`${base()}/${p.id}/board-views`).expect(200);
    expect(views.body.columns.map((c: any) => c.id)).toEqual(cols.body.columns.map((c: any) => c.id));
    expect(views.body.views).toHaveLength(1);
    expect(views.body.views[0]).toMatchObject({ name: 'Default', is_default: true, column_ids: cols.body.columns.map((c: any) => c.id) });

    const cv = await org.owner.http.get(`${base()}/${p.id}/custom-views`).expect(200);
    expect(cv.body.views.map((v: any) => v.name)).toEqual(['All Tasks', 'My Tasks', 'Recently Updated']);
    expect(cv.body.custom_views).toEqual(cv.body.views);
    expect(cv.body.views.every((v: any) => v.is_default === true)).toBe(true);
    expect(cv.body.views[1].filters).toMatchObject({ assignee: 'me' });
    expect(cv.body.views[2].sort).toEqual({ field: 'updated_at', direction: 'desc' });

    const db = await t.db.query('SELECT count(*)::int AS n FROM board_view_columns WHERE org_id = $1', [org.id]);
    expect(db[0].n).toBeGreaterThanOrEqual(4);
  });

  it('if any default fails, the whole creation rolls back: 500 with a generic body and no rows remain', async () => {
    const name = uniq('Atomic');
    await t.db.query(`
      CREATE OR REPLACE FUNCTION test_fail_recently_updated() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.name = 'Recently Updated' THEN RAISE EXCEPTION 'forced failure for the atomicity test'; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER test_fail_recently_updated BEFORE INSERT ON custom_views FOR EACH ROW EXECUTE FUNCTION test_fail_recently_updated();
    `);
    try {
      const res = await org.owner.http.post(base()).send({ name }).expect(500);
      expect(res.body).toEqual({ error: 'Internal server error', code: 'internal_error' });
      expect(JSON.stringify(res.body)).not.toMatch(/forced failure|custom_views/);
      const projects = await t.db.query('SELECT id FROM projects WHERE org_id = $1 AND name = $2', [org.id, name]);
      expect(projects).toHaveLength(0);
      const orphans = await t.db.query(
        `SELECT (SELECT count(*)::int FROM board_columns c WHERE c.org_id = $1 AND NOT EXISTS (SELECT 1 FROM projects p WHERE p.org_id = c.org_id AND p.id = c.project_id)) AS cols,
                (SELECT count(*)::int FROM board_views v WHERE v.org_id = $1 AND NOT EXISTS (SELECT 1 FROM projects p WHERE p.org_id = v.org_id AND p.id = v.project_id)) AS views,
                (SELECT count(*)::int FROM custom_views v WHERE v.org_id = $1 AND NOT EXISTS (SELECT 1 FROM projects p WHERE p.org_id = v.org_id AND p.id = v.project_id)) AS cviews`,
        [org.id],
      );
      expect(orphans[0]).toEqual({ cols: 0, views: 0, cviews: 0 });
      const slugs = await t.db.query('SELECT count(*)::int AS n FROM projects WHERE org_id = $1 AND slug LIKE $2', [org.id, `${name.toLowerCase()}%`]);
      expect(slugs[0].n).toBe(0);
    } finally {
      await t.db.query('DROP TRIGGER IF EXISTS test_fail_recently_updated ON custom_views; DROP FUNCTION IF EXISTS test_fail_recently_updated();');
    }
    // and with the trigger gone the same request succeeds
    const ok = await org.owner.http.post(base()).send({ name }).expect(201);
    const cv = await org.owner.http.get(`${base()}/${ok.body.project.id}/custom-views`).expect(200);
    expect(cv.body.views).toHaveLength(3);
  });

  it('keys: validated, unique (409 when taken explicitly), never TSK (the org prefix is allowed explicitly); derived keys and slugs get suffixes', async () => {
    const p = await newProject(t, org);
    const taken = await org.owner.http
      .post(base())
      .send({ name: uniq('Dup'), key: p.key })
      .expect(409);
    expect(taken.body).toMatchObject({ error: expect.stringContaining(p.key), code: 'project_key_taken' });
    const r = await org.owner.http
      .post(base())
      .send({ name: uniq('Reserved'), key: 'TSK' })
      .expect(409);
    expect(r.body.code).toBe('project_key_reserved');
    const same = await org.owner.http
      .post(base())
      .send({ name: uniq('OrgPrefix'), key: org.prefix })
      .expect(201);
    expect(same.body.project.key).toBe(org.prefix);
    for (const key of ['web', 'W', '1ABC', 'ABCDEFGHIJK', 'AB-C', 'ÄBC', 12, '']) {
      const r = await org.owner.http
        .post(base())
        .send({ name: uniq('Bad'), key })
        .expect(400);
      expect(withoutDetails(r.body)).toEqual({ error: expect.any(String), code: 'validation_failed' });
    }
    const name = `Mobile App ${uniq('m').slice(2)}`;
    const a = await org.owner.http.post(base()).send({ name }).expect(201);
    const b = await org.owner.http.post(base()).send({ name }).expect(201);
    expect(a.body.project.key).toMatch(/^[A-Z][A-Z0-9]{1,9}$/);
    expect(b.body.project.key).toMatch(/^[A-Z][A-Z0-9]{1,9}$/);
    expect(b.body.project.key).not.toBe(a.body.project.key);
    expect(b.body.project.key.startsWith(a.body.project.key.slice(0, 2))).toBe(true);
    expect(b.body.project.slug).toBe(`${a.body.project.slug}-2`);
    const c = await org.owner.http.post(base()).send({ name }).expect(201);
    expect(c.body.project.slug).toBe(`${a.body.project.slug}-3`);
    // a name that derives nothing usable still gets a valid key and slug
    const odd = await org.owner.http.post(base()).send({ name: '日本', key: null }).expect(201);
    expect(odd.body.project.key).toMatch(/^[A-Z][A-Z0-9]{1,9}$/);
    expect(odd.body.project.slug).toMatch(/^project(-\d+)?$/);
    // a derived key never takes the org prefix ("Q A B C D" has the initials of the prefix)
    const fromPrefix = await org.owner.http
      .post(base())
      .send({ name: org.prefix.split('').join(' ') })
      .expect(201);
    expect(fromPrefix.body.project.key).not.toBe(org.prefix);
  });

  it('POST input validation: 400 for bad fields, malformed JSON, non-object bodies', async () => {
    for (const body of [
      {},
      { name: '' },
      { name: '   ' },
      { name: 5 },
      { name: 'x'.repeat(201) },
      { name: 'ok', color: 'red' },
      { name: 'ok', icon: 'x'.repeat(65) },
      { name: 'ok', description: 7 },
    ]) {
      const r = await org.owner.http.post(base()).send(body).expect(400);
      expect(withoutDetails(r.body)).toEqual({ error: expect.any(String), code: 'validation_failed' });
    }
    await org.owner.http.post(base()).set('content-type', 'application/json').send('{"name": ').expect(400);
    await org.owner.http.post(base()).set('content-type', 'application/json').send('["a"]').expect(400);
  });

  it('only owners and admins create projects; members and guests get 403; non-members 404; no credentials 401', async () => {
    const admin = await join(t, org, 'admin');
    const member = await join(t, org, 'member');
    const guest = await join(t, org, 'guest');
    const created = await admin.user.http
      .post(base())
      .send({ name: uniq('ByAdmin') })
      .expect(201);
    expect(created.body.project.access_level).toBe('admin');
    await member.user.http
      .post(base())
      .send({ name: uniq('ByMember') })
      .expect(403);
    await guest.user.http
      .post(base())
      .send({ name: uniq('ByGuest') })
      .expect(403);
    const stranger = await newOrg(t);
    await stranger.owner.http
      .post(base())
      .send({ name: uniq('Stranger') })
      .expect(404);
    const r = await t.http().post(base()).send({ name: 'x' }).expect(401);
    expect(r.body).toEqual({ error: 'Unauthorized', code: 'unauthorized' });
    await t.http().get(base()).expect(401);
    await t.http().get(`${base()}/${created.body.project.id}`).expect(401);
    await t.http().get(`${base()}/${created.body.project.id}/board-columns`).expect(401);
  });

  it('GET list: readable projects only, legacy and envelope shapes, bad paging 400', async () => {
    const o = await newOrg(t);
    const p1 = await newProject(t, o);
    const p2 = await newProject(t, o);
    const member = await join(t, o, 'member');
    const guest = await join(t, o, 'guest');
    const list = await o.owner.http.get(`/api/orgs/${o.id}/projects`).expect(200);
    expect(list.body).toMatchObject({ total: 2, limit: 25, offset: 0 });
    expect(list.body.projects.map((p: any) => p.id)).toEqual([p1.id, p2.id]);
    expect(list.body.projects[0].access_level).toBe('admin');
    const asMember = await member.user.http.get(`/api/orgs/${o.id}/projects`).expect(200);
    expect(asMember.body.projects.map((p: any) => [p.id, p.access_level])).toEqual([
      [p1.id, 'view'],
      [p2.id, 'view'],
    ]);
    const none = await guest.user.http.get(`/api/orgs/${o.id}/projects`).expect(200);
    expect(none.body).toMatchObject({ projects: [], total: 0 });
    await o.owner.http.post(`/api/orgs/${o.id}/projects/${p2.id}/members`).send({ memberId: guest.memberId, accessLevel: 'view' }).expect(201);
    const some = await guest.user.http.get(`/api/orgs/${o.id}/projects`).expect(200);
    expect(some.body.projects.map((p: any) => p.id)).toEqual([p2.id]);
    expect(some.body.total).toBe(1);
    const env = await o.owner.http.get(`/api/orgs/${o.id}/projects?shape=envelope&limit=1`).expect(200);
    expect(env.body).toMatchObject({ resource: 'projects', total: 2, limit: 1, offset: 0, nextOffset: 1, truncated: true });
    expect(env.body.items).toHaveLength(1);
    const cli = await o.owner.http.get(`/api/orgs/${o.id}/projects?response_shape=cli&offset=1`).expect(200);
    expect(cli.body.items.map((p: any) => p.id)).toEqual([p2.id]);
    for (const q of ['limit=0', 'limit=abc', 'offset=-1', 'shape=weird', 'status=gone']) {
      await o.owner.http.get(`/api/orgs/${o.id}/projects?${q}`).expect(400);
    }
    const clamped = await o.owner.http.get(`/api/orgs/${o.id}/projects?limit=1000`).expect(200);
    expect(clamped.body.limit).toBe(100);
    // another organization's owner sees nothing of this one
    const other = await newOrg(t);
    await other.owner.http.get(`/api/orgs/${o.id}/projects`).expect(404);
  });

  it('GET one: { project } with access_level; 404 for unreadable, other org, unknown and non-UUID ids', async () => {
    const p = await newProject(t, org);
    const member = await join(t, org, 'member');
    const guest = await join(t, org, 'guest');
    const res = await member.user.http.get(`${base()}/${p.id}`).expect(200);
    expect(res.body.project).toMatchObject({ id: p.id, name: p.name, key: p.key, status: 'active', access_level: 'view' });
    const g = await guest.user.http.get(`${base()}/${p.id}`).expect(404);
    const missing = await org.owner.http.get(`${base()}/${randomId()}`).expect(404);
    expect(g.body).toEqual(missing.body);
    await org.owner.http.get(`${base()}/not-a-uuid`).expect(404);
    const other = await newOrg(t);
    await other.owner.http.get(`${base()}/${p.id}`).expect(404);
    await other.owner.http.get(`/api/orgs/${other.id}/projects/${p.id}`).expect(404);
  });

  it('PATCH: project admins edit; members 403; guests 404; bad input 400; key cannot change', async () => {
    const p = await newProject(t, org);
    const member = await join(t, org, 'member');
    const guest = await join(t, org, 'guest');
    const url = `${base()}/${p.id}`;
    const res = await org.owner.http.patch(url).send({ name: 'Renamed', description: 'New', color: '#abcdef', icon: 'rocket' }).expect(200);
    expect(res.body.project).toMatchObject({ id: p.id, name: 'Renamed', description: 'New', color: '#abcdef', icon: 'rocket', key: p.key });
    const cleared = await org.owner.http.patch(url).send({ description: null, color: null }).expect(200);
    expect(cleared.body.project).toMatchObject({ description: null, color: null, icon: 'rocket' });
    await member.user.http.patch(url).send({ name: 'Nope' }).expect(403);
    await guest.user.http.patch(url).send({ name: 'Nope' }).expect(404);
    for (const body of [{}, { name: null }, { name: '' }, { status: 'deleted' }, { color: 'blue' }, { key: 'NEWKEY' }]) {
      await org.owner.http.patch(url).send(body).expect(400);
    }
    // a member with an admin entry may edit the project
    await org.owner.http.post(`${url}/members`).send({ memberId: member.memberId, accessLevel: 'admin' }).expect(201);
    const byProjectAdmin = await member.user.http.patch(url).send({ status: 'archived' }).expect(200);
    expect(byProjectAdmin.body.project).toMatchObject({ status: 'archived', access_level: 'admin' });
    await member.user.http.patch(url).send({ status: 'active' }).expect(200);
  });

  it('DELETE: owner/admin with { confirmation: "DELETE" }; otherwise 400; members 403 even with a project admin entry; cascades', async () => {
    const p = await newProject(t, org);
    const member = await join(t, org, 'member');
    const url = `${base()}/${p.id}`;
    await org.owner.http.post(`${url}/members`).send({ memberId: member.memberId, accessLevel: 'admin' }).expect(201);
    await t.db.query(`INSERT INTO issues (org_id, id, project_id, number, title, status) VALUES ($1, $2, $3, 1, 'Doomed', 'todo')`, [org.id, randomId(), p.id]);
    await member.user.http.delete(url).send({ confirmation: 'DELETE' }).expect(403);
    for (const body of [{}, { confirmation: 'delete' }, { confirmation: 'yes' }, { confirmation: true }]) {
      await org.owner.http.delete(url).send(body).expect(400);
    }
    await org.owner.http.delete(url).expect(400);
    const res = await org.owner.http.delete(url).send({ confirmation: 'DELETE' }).expect(200);
    expect(res.body).toEqual({ success: true });
    await org.owner.http.get(url).expect(404);
    await org.owner.http.get(`${url}/board-columns`).expect(404);
    const left = await t.db.query(
      `SELECT (SELECT count(*)::int FROM board_columns WHERE org_id = $1 AND project_id = $2)
            + (SELECT count(*)::int FROM board_views WHERE org_id = $1 AND project_id = $2)
            + (SELECT count(*)::int FROM custom_views WHERE org_id = $1 AND project_id = $2)
            + (SELECT count(*)::int FROM project_members WHERE org_id = $1 AND project_id = $2)
            + (SELECT count(*)::int FROM issues WHERE org_id = $1 AND project_id = $2) AS n`,
      [org.id, p.id],
    );
    expect(left[0].n).toBe(0);
    await org.owner.http.delete(url).send({ confirmation: 'DELETE' }).expect(404);
  });
});

describe('projects: plan limit (free plan)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ SERVICE_DEFAULT_PLAN: 'free' });
  });
  afterAll(() => t.close());

  it('the 4th active project is 402 PLAN_LIMIT_REACHED; archived ones do not count; reactivating does', async () => {
    const org = await newOrg(t);
    const base = `/api/orgs/${org.id}/projects`;
    const ps = [];
    for (let i = 0; i < 3; i++) ps.push(await newProject(t, org));
    const res = await org.owner.http
      .post(base)
      .send({ name: uniq('Fourth') })
      .expect(402);
    expect(res.body).toEqual({ error: 'Plan limit reached', code: 'PLAN_LIMIT_REACHED', resource: 'activeProjects', plan: 'free', limit: 3, usage: 3 });
    expect((await t.db.query('SELECT count(*)::int AS n FROM projects WHERE org_id = $1', [org.id]))[0].n).toBe(3);
    await org.owner.http.patch(`${base}/${ps[0].id}`).send({ status: 'archived' }).expect(200);
    const fourth = await org.owner.http
      .post(base)
      .send({ name: uniq('Fourth') })
      .expect(201);
    const again = await org.owner.http.patch(`${base}/${ps[0].id}`).send({ status: 'active' }).expect(402);
    expect(again.body).toMatchObject({ code: 'PLAN_LIMIT_REACHED', resource: 'activeProjects', limit: 3, usage: 3 });
    // an archived → archived or active → active update is not a reactivation
    await org.owner.http.patch(`${base}/${fourth.body.project.id}`).send({ status: 'active', name: 'Still fine' }).expect(200);
    await org.owner.http.patch(`${base}/${ps[0].id}`).send({ status: 'archived' }).expect(200);
    const list = await org.owner.http.get(`${base}?status=archived`).expect(200);
    expect(list.body.projects.map((p: any) => p.id)).toEqual([ps[0].id]);
  });
});
