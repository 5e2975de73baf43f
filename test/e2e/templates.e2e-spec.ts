import { addMember, bearer, newAgent, newOrg, newProject, newUser, randomId, type TestOrg, type TestUser, uniq } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';

/**
 * Issue templates: project templates follow the project's access (read any level, write edit);
 * organization-wide templates are read by non-guests and managed by owners/admins; guests and
 * project-scoped agents never see them. Issue create takes `templateId`.
 */
describe('issue templates', () => {
  let t: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  let admin: TestUser;
  let member: TestUser;
  let guest: TestUser;
  let memberId: string;
  let guestId: string;
  let projA: { id: string };
  let projB: { id: string };
  let scoped: ReturnType<typeof bearer>;
  const base = () => `/api/orgs/${org.id}/templates`;

  beforeAll(async () => {
    t = await startTestApp();
    org = await newOrg(t);
    other = await newOrg(t);
    admin = await newUser(t, 'admin');
    member = await newUser(t, 'member');
    guest = await newUser(t, 'guest');
    await addMember(t, org, admin, 'admin');
    memberId = await addMember(t, org, member, 'member');
    guestId = await addMember(t, org, guest, 'guest');
    projA = await newProject(t, org);
    projB = await newProject(t, org);
    // the member may edit A (view elsewhere); the guest reads A only
    await org.owner.http.post(`/api/orgs/${org.id}/projects/${projA.id}/members`).send({ memberId, accessLevel: 'edit' }).expect(201);
    await org.owner.http.post(`/api/orgs/${org.id}/projects/${projA.id}/members`).send({ memberId: guestId, accessLevel: 'view' }).expect(201);
    const agent = await newAgent(t, org, { projectIds: [projA.id] });
    scoped = bearer(t, agent.key);
  });
  afterAll(() => t.close());

  const orgTemplate = async (name = uniq('Org tpl')) =>
    (await org.owner.http.post(base()).send({ name, content: '## Steps\n\n1. one' }).expect(201)).body.template;
  const projectTemplate = async (projectId: string, name = uniq('Proj tpl')) =>
    (await org.owner.http.post(base()).send({ name, content: 'Fill **this**', projectId }).expect(201)).body.template;

  it('an owner creates an organization-wide template: 201 with sanitized HTML content', async () => {
    const name = uniq('Bug report');
    const res = await org.owner.http
      .post(base())
      .send({ name: `  ${name} `, content: '# Bug\n\n**steps**' })
      .expect(201);
    expect(res.body).toEqual({
      template: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        project_id: null,
        name,
        content: expect.stringContaining('<strong>steps</strong>'),
        created_by: org.ownerMemberId,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    });
    expect(res.body.template.content).toContain('<h1>Bug</h1>');
    // HTML is sanitized as given: active content goes
    const html = await org.owner.http
      .post(base())
      .send({ name: uniq('html'), content: '<p onclick="x()">Hi<script>alert(1)</script></p>' })
      .expect(201);
    expect(html.body.template.content).toBe('<p>Hi</p>');
    await admin.http
      .post(base())
      .send({ name: uniq('by admin'), content: 'x' })
      .expect(201);
  });

  it('members and guests cannot create organization-wide templates (403, nothing stored)', async () => {
    for (const who of [member, guest]) {
      const name = uniq('nope');
      const r = await who.http.post(base()).send({ name, content: 'x' }).expect(403);
      expect(r.body.code).toBe('forbidden');
      expect(await t.db.query('SELECT 1 FROM issue_templates WHERE org_id = $1 AND name = $2', [org.id, name])).toHaveLength(0);
    }
    await scoped
      .post(base())
      .send({ name: uniq('nope'), content: 'x' })
      .expect(403);
  });

  it('project templates need edit access: 201 with edit, 403 view-only, 404 unreadable or unknown project', async () => {
    const mine = await member.http
      .post(base())
      .send({ name: uniq('A tpl'), content: 'x', projectId: projA.id })
      .expect(201);
    expect(mine.body.template.project_id).toBe(projA.id);
    expect(
      (
        await member.http
          .post(base())
          .send({ name: uniq('B tpl'), content: 'x', projectId: projB.id })
          .expect(403)
      ).body.code,
    ).toBe('forbidden');
    await guest.http
      .post(base())
      .send({ name: uniq('A tpl'), content: 'x', projectId: projA.id })
      .expect(403);
    await guest.http
      .post(base())
      .send({ name: uniq('B tpl'), content: 'x', projectId: projB.id })
      .expect(404);
    await org.owner.http
      .post(base())
      .send({ name: uniq('x'), content: 'x', projectId: randomId() })
      .expect(404);
    await other.owner.http
      .post(`/api/orgs/${other.id}/templates`)
      .send({ name: uniq('x'), content: 'x', projectId: projA.id })
      .expect(404);
    // a project-scoped agent with edit on A
    const agentTpl = await scoped
      .post(base())
      .send({ name: uniq('agent tpl'), content: 'x', project_id: projA.id })
      .expect(201);
    expect(agentTpl.body.template.project_id).toBe(projA.id);
  });

  it('lists what the caller can read: guests and project-scoped agents never see organization-wide templates', async () => {
    const o = await orgTemplate();
    const a = await projectTemplate(projA.id);
    const b = await projectTemplate(projB.id);
    const ids = async (http: { get: (p: string) => any }, q = '') =>
      (await http.get(`${base()}?limit=100${q}`).expect(200)).body.templates.map((x: any) => x.id);
    expect(await ids(org.owner.http)).toEqual(expect.arrayContaining([o.id, a.id, b.id]));
    expect(await ids(member.http)).toEqual(expect.arrayContaining([o.id, a.id, b.id]));
    const g = await ids(guest.http);
    expect(g).toContain(a.id);
    expect(g).not.toContain(o.id);
    expect(g).not.toContain(b.id);
    const s = await ids(scoped);
    expect(s).toContain(a.id);
    expect(s).not.toContain(o.id);
    // projectId: that project's templates and the organization-wide ones
    const forB = await ids(member.http, `&projectId=${projB.id}`);
    expect(forB).toEqual(expect.arrayContaining([o.id, b.id]));
    expect(forB).not.toContain(a.id);
    await guest.http.get(`${base()}?projectId=${projB.id}`).expect(404);
    await guest.http.get(`${base()}?projectId=${randomId()}`).expect(404);
    expect((await member.http.get(`${base()}?projectId=nope`).expect(400)).body.error).toMatch(/projectId/);
    // list conventions: page, total, envelope
    const page = await org.owner.http.get(`${base()}?limit=1&offset=1`).expect(200);
    expect(page.body).toMatchObject({ limit: 1, offset: 1, total: expect.any(Number) });
    expect(page.body.templates).toHaveLength(1);
    const env = await org.owner.http.get(`${base()}?shape=envelope&limit=2`).expect(200);
    expect(env.body).toMatchObject({ resource: 'templates', limit: 2 });
    // another organization sees none of them, and cannot read this one's
    expect((await other.owner.http.get(`/api/orgs/${other.id}/templates`).expect(200)).body.templates).toEqual([]);
    await other.owner.http.get(base()).expect(404);
  });

  it('names are unique per scope in any letter case (409 template_name_taken); the same name may live in another scope', async () => {
    const name = uniq('Dup');
    await orgTemplate(name);
    const r = await org.owner.http.post(base()).send({ name: name.toUpperCase(), content: 'x' }).expect(409);
    expect(r.body.code).toBe('template_name_taken');
    await projectTemplate(projA.id, name);
    await org.owner.http.post(base()).send({ name, content: 'x', projectId: projA.id }).expect(409);
    const t2 = await orgTemplate();
    expect((await org.owner.http.patch(`${base()}/${t2.id}`).send({ name }).expect(409)).body.code).toBe('template_name_taken');
  });

  it('PATCH renames or rewrites (same rights as creating); scope never changes; 404 concealment', async () => {
    const o = await orgTemplate();
    const res = await admin.http.patch(`${base()}/${o.id}`).send({ name: 'Renamed', content: '*new*' }).expect(200);
    expect(res.body.template).toMatchObject({ id: o.id, name: 'Renamed', content: '<p><em>new</em></p>' });
    expect(new Date(res.body.template.updated_at).getTime()).toBeGreaterThanOrEqual(new Date(o.updated_at).getTime());
    await member.http.patch(`${base()}/${o.id}`).send({ name: 'x' }).expect(403);
    await guest.http.patch(`${base()}/${o.id}`).send({ name: 'x' }).expect(404);
    await scoped.patch(`${base()}/${o.id}`).send({ name: 'x' }).expect(404);
    await other.owner.http.patch(`/api/orgs/${other.id}/templates/${o.id}`).send({ name: 'x' }).expect(404);
    await org.owner.http.patch(`${base()}/${randomId()}`).send({ name: 'x' }).expect(404);
    await org.owner.http.patch(`${base()}/not-a-uuid`).send({ name: 'x' }).expect(404);
    expect((await org.owner.http.patch(`${base()}/${o.id}`).send({}).expect(400)).body.error).toMatch(/Nothing to update/);
    expect((await org.owner.http.patch(`${base()}/${o.id}`).send({ projectId: projA.id }).expect(400)).body.error).toMatch(/projectId/);
    const a = await projectTemplate(projA.id);
    await member.http.patch(`${base()}/${a.id}`).send({ content: 'ok' }).expect(200);
    await guest.http.patch(`${base()}/${a.id}`).send({ content: 'no' }).expect(403);
    const b = await projectTemplate(projB.id);
    await member.http.patch(`${base()}/${b.id}`).send({ content: 'no' }).expect(403);
    await guest.http.patch(`${base()}/${b.id}`).send({ content: 'no' }).expect(404);
  });

  it('DELETE: same rights; then 404', async () => {
    const o = await orgTemplate();
    await member.http.delete(`${base()}/${o.id}`).expect(403);
    await guest.http.delete(`${base()}/${o.id}`).expect(404);
    expect((await admin.http.delete(`${base()}/${o.id}`).expect(200)).body).toEqual({ success: true });
    await admin.http.delete(`${base()}/${o.id}`).expect(404);
    const a = await projectTemplate(projA.id);
    await guest.http.delete(`${base()}/${a.id}`).expect(403);
    await member.http.delete(`${base()}/${a.id}`).expect(200);
  });

  it('bad input is a 400 naming the field, never a 5xx', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ content: 'x' }, /name/],
      [{ name: '   ', content: 'x' }, /name/],
      [{ name: 'x'.repeat(201), content: 'x' }, /name/],
      [{ name: 42, content: 'x' }, /name/],
      [{ name: 'ok' }, /content/],
      [{ name: 'ok', content: '<script>x</script>' }, /content/],
      [{ name: 'ok', content: 'x'.repeat(100_001) }, /content/],
      [{ name: 'ok', content: 'x', projectId: 'nope' }, /projectId/],
      [{ name: 'ok', content: 'x', extra: 1 }, /extra/],
    ];
    for (const [body, msg] of cases) {
      const r = await org.owner.http.post(base()).send(body);
      expect([r.status, r.body.error]).toEqual([400, expect.stringMatching(msg)]);
    }
  });

  it('a project delete removes its templates', async () => {
    const p = await newProject(t, org);
    const tpl = await projectTemplate(p.id);
    await org.owner.http.delete(`/api/orgs/${org.id}/projects/${p.id}`).send({ confirmation: 'DELETE' }).expect(200);
    expect(await t.db.query('SELECT 1 FROM issue_templates WHERE org_id = $1 AND id = $2', [org.id, tpl.id])).toHaveLength(0);
  });

  describe('issue create with templateId', () => {
    const issues = () => `/api/orgs/${org.id}/issues`;

    it("the template's content becomes the description unless one is given", async () => {
      const o = await orgTemplate();
      const made = await member.http.post(issues()).send({ title: 'from tpl', projectId: projA.id, templateId: o.id }).expect(201);
      expect(made.body.issue.description).toBe(o.content);
      const given = await member.http.post(issues()).send({ title: 'own', projectId: projA.id, template_id: o.id, description: 'mine' }).expect(201);
      expect(given.body.issue.description).toBe('mine');
      const a = await projectTemplate(projA.id);
      const fromA = await scoped.post(issues()).send({ title: 'agent', projectId: projA.id, templateId: a.id }).expect(201);
      expect(fromA.body.issue.description).toBe(a.content);
      const bulk = await member.http
        .post(`${issues()}/bulk`)
        .send({
          issues: [
            { title: 'b1', projectId: projA.id, templateId: a.id },
            { title: 'b2', projectId: projA.id },
          ],
        })
        .expect(201);
      expect(bulk.body.issues.map((i: any) => i.description)).toEqual([a.content, null]);
    });

    it('a template of another project is 400 template_project_mismatch; an unreadable one 404; update takes none', async () => {
      const b = await projectTemplate(projB.id);
      const r = await member.http.post(issues()).send({ title: 'x', projectId: projA.id, templateId: b.id }).expect(400);
      expect(r.body.code).toBe('template_project_mismatch');
      const o = await orgTemplate();
      await scoped.post(issues()).send({ title: 'x', projectId: projA.id, templateId: o.id }).expect(404);
      await member.http.post(issues()).send({ title: 'x', projectId: projA.id, templateId: randomId() }).expect(404);
      expect((await member.http.post(issues()).send({ title: 'x', projectId: projA.id, templateId: 'nope' }).expect(400)).body.error).toMatch(/templateId/);
      const before = await t.db.query('SELECT count(*)::int AS n FROM issues WHERE org_id = $1', [org.id]);
      await member.http
        .post(`${issues()}/bulk`)
        .send({
          issues: [
            { title: 'ok', projectId: projA.id },
            { title: 'bad', projectId: projA.id, templateId: b.id },
          ],
        })
        .expect(400);
      expect(await t.db.query('SELECT count(*)::int AS n FROM issues WHERE org_id = $1', [org.id])).toEqual(before);
      const made = await member.http.post(issues()).send({ title: 'x', projectId: projA.id }).expect(201);
      expect((await member.http.patch(`${issues()}/${made.body.issue.id}`).send({ templateId: o.id }).expect(400)).body.error).toMatch(/templateId/);
    });
  });
});
