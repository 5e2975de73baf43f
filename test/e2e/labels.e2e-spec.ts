import { addMember, bearer, newAgent, newOrg, newProject, newUser, randomId, type TestOrg, type TestUser, uniq } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import { withoutDetails } from '../support/errors';

/**
 * Labels: every member reads (guests included), non-guests create, owners/admins update and
 * delete; names are unique per organization case-insensitively.
 */
describe('labels', () => {
  let t: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  let admin: TestUser;
  let member: TestUser;
  let guest: TestUser;
  const base = () => `/api/orgs/${org.id}/labels`;

  beforeAll(async () => {
    t = await startTestApp();
    org = await newOrg(t);
    other = await newOrg(t);
    admin = await newUser(t, 'admin');
    member = await newUser(t, 'member');
    guest = await newUser(t, 'guest');
    await addMember(t, org, admin, 'admin');
    await addMember(t, org, member, 'member');
    await addMember(t, org, guest, 'guest');
  });
  afterAll(() => t.close());

  const createLabel = async (body: Record<string, unknown> = {}) =>
    (
      await org.owner.http
        .post(base())
        .send({ name: uniq('lbl'), ...body })
        .expect(201)
    ).body.label;

  it('owner creates a label: 201 { label } with trimmed name, lowercase color and ISO timestamps', async () => {
    const name = uniq('Bug');
    const res = await org.owner.http
      .post(base())
      .send({ name: `  ${name} `, color: '#3366FF', description: 'Something is broken' })
      .expect(201);
    expect(res.body).toEqual({
      label: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name,
        color: '#3366ff',
        description: 'Something is broken',
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    });
    expect(new Date(res.body.label.created_at).toISOString()).toBe(res.body.label.created_at);
    const bare = await org.owner.http
      .post(base())
      .send({ name: uniq('bare') })
      .expect(201);
    expect(bare.body.label).toMatchObject({ color: null, description: null });
    const rows = await t.db.query('SELECT org_id FROM labels WHERE id = $1', [res.body.label.id]);
    expect(rows).toEqual([{ org_id: org.id }]);
  });

  it('non-guest members create labels; guests get 403 and nothing is stored', async () => {
    const byMember = await member.http
      .post(base())
      .send({ name: uniq('m') })
      .expect(201);
    expect(byMember.body.label.id).toBeDefined();
    await admin.http
      .post(base())
      .send({ name: uniq('a') })
      .expect(201);
    const name = uniq('g');
    const r = await guest.http.post(base()).send({ name }).expect(403);
    expect(r.body.code).toBe('forbidden');
    expect(await t.db.query('SELECT 1 FROM labels WHERE org_id = $1 AND name = $2', [org.id, name])).toHaveLength(0);
  });

  it('agents: org agents with role member create; project-scoped agents (guests) read only; personal agents follow their owner', async () => {
    const orgAgent = bearer(t, (await newAgent(t, org, { role: 'member' })).key);
    const made = await orgAgent
      .post(base())
      .send({ name: uniq('agent') })
      .expect(201);
    await orgAgent
      .patch(`${base()}/${made.body.label.id}`)
      .send({ name: uniq('x') })
      .expect(403);

    const project = await newProject(t, org);
    const scoped = bearer(t, (await newAgent(t, org, { projectIds: [project.id] })).key);
    const seen = await scoped.get(`${base()}?limit=100`).expect(200);
    expect(seen.body.labels.map((l: { id: string }) => l.id)).toContain(made.body.label.id);
    await scoped.get(`${base()}/${made.body.label.id}`).expect(200);
    await scoped
      .post(base())
      .send({ name: uniq('scoped') })
      .expect(403);

    const human = await newUser(t, 'pa-owner');
    const humanId = await addMember(t, org, human, 'member');
    const created = await human.http
      .post(`/api/orgs/${org.id}/agents`)
      .send({ name: uniq('Personal'), personal: true })
      .expect(201);
    const personal = bearer(t, created.body.apiKey);
    await personal
      .post(base())
      .send({ name: uniq('pa') })
      .expect(201);
    await org.owner.http.patch(`/api/orgs/${org.id}/members/${humanId}`).send({ role: 'guest' }).expect(200);
    // a guest cannot own a personal agent: the demotion revoked its keys (docs/DECISIONS.md, "Agents")
    await personal
      .post(base())
      .send({ name: uniq('pa') })
      .expect(401);
    await personal.get(base()).expect(401);
  });

  it('names are unique per organization case-insensitively (409 label_name_taken), not across organizations', async () => {
    const name = uniq('Feature');
    await createLabel({ name });
    for (const n of [name, name.toUpperCase(), name.toLowerCase(), `  ${name}  `]) {
      const r = await org.owner.http.post(base()).send({ name: n }).expect(409);
      expect(r.body).toEqual({ error: expect.any(String), code: 'label_name_taken' });
    }
    await member.http.post(base()).send({ name: name.toUpperCase() }).expect(409);
    await other.owner.http.post(`/api/orgs/${other.id}/labels`).send({ name }).expect(201);
  });

  it('concurrent creates of the same name: exactly one 201, the rest 409 (never 500)', async () => {
    const name = uniq('race');
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => org.owner.http.post(base()).send({ name: i % 2 ? name.toUpperCase() : name })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.code).toBe('label_name_taken');
  });

  it('reads: every member including guests; legacy { labels, total, limit, offset } by name and the envelope', async () => {
    const o = await newOrg(t);
    const g = await newUser(t, 'g2');
    await addMember(t, o, g, 'guest');
    for (const name of ['charlie', 'Alpha', 'bravo']) await o.owner.http.post(`/api/orgs/${o.id}/labels`).send({ name }).expect(201);
    const res = await g.http.get(`/api/orgs/${o.id}/labels`).expect(200);
    expect(res.body).toMatchObject({ total: 3, limit: 25, offset: 0 });
    expect(res.body.labels.map((l: { name: string }) => l.name)).toEqual(['Alpha', 'bravo', 'charlie']);
    const one = await g.http.get(`/api/orgs/${o.id}/labels/${res.body.labels[0].id}`).expect(200);
    expect(one.body).toEqual({ label: res.body.labels[0] });

    const env = await g.http.get(`/api/orgs/${o.id}/labels?shape=envelope&limit=2`).expect(200);
    expect(env.body).toMatchObject({ resource: 'labels', total: 3, limit: 2, offset: 0, nextOffset: 2, truncated: true, hint: expect.any(String) });
    expect(env.body.items.map((l: { name: string }) => l.name)).toEqual(['Alpha', 'bravo']);
    const last = await g.http.get(`/api/orgs/${o.id}/labels?response_shape=cli&offset=2`).expect(200);
    expect(last.body).toMatchObject({ resource: 'labels', total: 3, nextOffset: null, truncated: false, hint: null });
    expect((await g.http.get(`/api/orgs/${o.id}/labels?limit=1000`).expect(200)).body.limit).toBe(100);
    for (const q of ['limit=0', 'limit=x', 'offset=-5', 'offset=1.5', 'shape=nope', 'offset=1&offset=2']) {
      const r = await g.http.get(`/api/orgs/${o.id}/labels?${q}`).expect(400);
      expect(r.body.code).toBe('validation_failed');
    }
  });

  it('PATCH: owners and admins only; rename, case-only rename, color/description clear; conflicts 409; empty body 400', async () => {
    const label = await createLabel({ name: uniq('Ui'), color: '#aabbcc', description: 'first' });
    const taken = await createLabel();
    for (const u of [member, guest]) {
      const r = await u.http
        .patch(`${base()}/${label.id}`)
        .send({ name: uniq('x') })
        .expect(403);
      expect(r.body.code).toBe('forbidden');
      await u.http.patch(`${base()}/${randomId()}`).send({ name: 'x' }).expect(403); // role first: no existence oracle
    }
    const up = label.name.toUpperCase();
    const caseOnly = await admin.http.patch(`${base()}/${label.id}`).send({ name: up }).expect(200);
    expect(caseOnly.body.label).toMatchObject({ id: label.id, name: up, color: '#aabbcc', description: 'first' });
    const cleared = await org.owner.http.patch(`${base()}/${label.id}`).send({ color: null, description: '  ' }).expect(200);
    expect(cleared.body.label).toMatchObject({ name: up, color: null, description: null });
    const recolored = await org.owner.http.patch(`${base()}/${label.id}`).send({ color: '#ABCDEF', description: 'again' }).expect(200);
    expect(recolored.body.label).toMatchObject({ color: '#abcdef', description: 'again' });
    expect(Date.parse(recolored.body.label.updated_at)).toBeGreaterThanOrEqual(Date.parse(label.updated_at));
    expect((await guest.http.get(`${base()}/${label.id}`).expect(200)).body.label).toEqual(recolored.body.label);

    const conflict = await org.owner.http.patch(`${base()}/${label.id}`).send({ name: taken.name.toUpperCase() }).expect(409);
    expect(conflict.body.code).toBe('label_name_taken');
    for (const body of [
      {},
      { name: null },
      { name: '  ' },
      { name: 1 },
      { color: 'red' },
      { color: '#12345g' },
      { description: 9 },
      { description: 'x'.repeat(5001) },
    ]) {
      const r = await org.owner.http.patch(`${base()}/${label.id}`).send(body).expect(400);
      expect(withoutDetails(r.body)).toEqual({ error: expect.any(String), code: 'validation_failed' });
    }
    await org.owner.http.patch(`${base()}/${randomId()}`).send({ name: 'x' }).expect(404);
  });

  it('DELETE: owners and admins only; 200 { success: true }, then 404', async () => {
    const label = await createLabel();
    await member.http.delete(`${base()}/${label.id}`).expect(403);
    await guest.http.delete(`${base()}/${label.id}`).expect(403);
    await member.http.get(`${base()}/${label.id}`).expect(200);
    const res = await admin.http.delete(`${base()}/${label.id}`).expect(200);
    expect(res.body).toEqual({ success: true });
    await org.owner.http.get(`${base()}/${label.id}`).expect(404);
    await org.owner.http.delete(`${base()}/${label.id}`).expect(404);
    // The name is free again.
    await createLabel({ name: label.name });
  });

  it('malformed bodies are 400, never 500', async () => {
    const bad: unknown[] = [
      {},
      { name: 123 },
      { name: '' },
      { name: '   ' },
      { name: 'x'.repeat(101) },
      { name: null },
      { name: { a: 1 } },
      { name: 'ok', color: 'red' },
      { name: 'ok', color: '#fff' },
      { name: 'ok', color: '3366ff' },
      { name: 'ok', color: '#3366ffaa' },
      { name: 'ok', color: 123 },
      { name: 'ok', description: 'x'.repeat(5001) },
      { name: 'ok', description: false },
    ];
    for (const body of bad) {
      const r = await org.owner.http
        .post(base())
        .send(body as object)
        .expect(400);
      expect(withoutDetails(r.body)).toEqual({ error: expect.any(String), code: 'validation_failed' });
    }
    const raw = await org.owner.http.post(base()).set('content-type', 'application/json').send('{"name": "x",').expect(400);
    expect(raw.body).toEqual({ error: expect.any(String), code: expect.any(String) });
    await org.owner.http.post(base()).set('content-type', 'application/json').send('[{"name":"x"}]').expect(400);
    await org.owner.http.post(base()).set('content-type', 'application/json').send('null').expect(400);
    await org.owner.http.patch(`${base()}/${randomId()}`).set('content-type', 'application/json').send('{oops').expect(400);
    await org.owner.http.post(base()).send({ name: 'nul\u0000byte' }).expect(400);
    // Exactly 100 characters and 5000-character descriptions are fine.
    await org.owner.http
      .post(base())
      .send({ name: `${uniq('n')}${'y'.repeat(88)}`, description: 'd'.repeat(5000) })
      .expect(201);
  });

  it('401 without credentials on every route', async () => {
    const id = randomId();
    const anon = t.http();
    for (const c of [
      anon.get(base()),
      anon.post(base()).send({ name: 'x' }),
      anon.get(`${base()}/${id}`),
      anon.patch(`${base()}/${id}`).send({ name: 'x' }),
      anon.delete(`${base()}/${id}`),
    ]) {
      const r = await c.expect(401);
      expect(r.body).toEqual({ error: 'Unauthorized', code: 'unauthorized' });
    }
  });

  it('concealment: other organizations, unknown and non-UUID ids are 404', async () => {
    const mine = await createLabel();
    const theirs = (
      await other.owner.http
        .post(`/api/orgs/${other.id}/labels`)
        .send({ name: uniq('b') })
        .expect(201)
    ).body.label;
    await other.owner.http.get(base()).expect(404);
    await other.owner.http.get(`${base()}/${mine.id}`).expect(404);
    await other.owner.http.post(base()).send({ name: 'x' }).expect(404);
    const p = `${base()}/${theirs.id}`;
    await org.owner.http.get(p).expect(404);
    await org.owner.http.patch(p).send({ name: 'hijack' }).expect(404);
    await org.owner.http.delete(p).expect(404);
    for (const path of [`${base()}/not-a-uuid`, `${base()}/${mine.id}x`, `/api/orgs/nope/labels`]) {
      const r = await org.owner.http.get(path).expect(404);
      expect(r.body.code).toBe('not_found');
    }
    await org.owner.http.patch(`${base()}/not-a-uuid`).send({ name: 'x' }).expect(404);
    await org.owner.http.delete(`${base()}/not-a-uuid`).expect(404);
    const still = await other.owner.http.get(`/api/orgs/${other.id}/labels/${theirs.id}`).expect(200);
    expect(still.body.label.name).toBe(theirs.name);
    // Org A's list never contains org B's labels.
    const list = await org.owner.http.get(`${base()}?limit=100`).expect(200);
    expect(list.body.labels.map((l: { id: string }) => l.id)).not.toContain(theirs.id);
  });
});
