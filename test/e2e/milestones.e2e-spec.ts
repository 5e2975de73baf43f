import { randomUUID } from 'node:crypto';
import { addMember, newUser, type TestOrg, type TestUser, uniq } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import { insertIssue, workTrackingWorld } from '../support/issues';

/**
 * Milestones: reads need project read (404 otherwise), create/update need project edit (403
 * view-only), delete is owner/admin only; names unique per project case-insensitively.
 */
describe('milestones', () => {
  let t: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  let admin: TestUser;
  let member: TestUser;
  let editor: TestUser;
  let guest: TestUser;
  let proj: { id: string };
  let hidden: { id: string };
  const list = (projectId: string) => `/api/orgs/${org.id}/projects/${projectId}/milestones`;
  const one = (id: string) => `/api/orgs/${org.id}/milestones/${id}`;
  const create = async (body: Record<string, unknown> = {}, projectId = proj.id) =>
    (
      await org.owner.http
        .post(list(projectId))
        .send({ name: uniq('MS'), ...body })
        .expect(201)
    ).body.milestone;

  beforeAll(async () => {
    t = await startTestApp();
    ({ org, other, member, editor, guest, proj, hidden } = await workTrackingWorld(t));
    admin = await newUser(t, 'admin');
    await addMember(t, org, admin, 'admin');
  });
  afterAll(() => t.close());

  it('creates a milestone: 201 { milestone } with every field; target_date aliases', async () => {
    const name = uniq('Launch');
    const r = await org.owner.http
      .post(list(proj.id))
      .send({ name: `  ${name} `, description: 'Ship it', targetDate: '2031-03-31', status: 'active' })
      .expect(201);
    expect(r.body).toEqual({
      milestone: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        project_id: proj.id,
        name,
        description: 'Ship it',
        target_date: '2031-03-31',
        status: 'active',
        issue_count: 0,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    });
    expect((await create({ target_date: '2031-01-02' })).target_date).toBe('2031-01-02');
    expect((await create({ due_date: '2031-01-03' })).target_date).toBe('2031-01-03');
    expect((await create({ dueDate: '2031-01-04' })).target_date).toBe('2031-01-04');
    const bare = await create();
    expect(bare).toMatchObject({ description: null, target_date: null, status: 'planned' });
  });

  it('lists the project milestones and reads one, with issue_count', async () => {
    const m = await create({ target_date: '2030-01-01' });
    await insertIssue(t, org.id, proj.id, { milestoneId: m.id });
    await insertIssue(t, org.id, proj.id, { milestoneId: m.id });
    await insertIssue(t, org.id, proj.id, { milestoneId: m.id, archived: true });
    const l = await member.http.get(list(proj.id)).expect(200);
    expect(Object.keys(l.body)).toEqual(['milestones']);
    const item = l.body.milestones.find((x: any) => x.id === m.id);
    expect(item.issue_count).toBe(2);
    expect(l.body.milestones[0].id).toBe(m.id); // earliest target date first
    const g = await guest.http.get(one(m.id)).expect(200);
    expect(g.body.milestone).toMatchObject({ id: m.id, issue_count: 2 });
  });

  it('401 without authentication', async () => {
    await t.http().get(list(proj.id)).expect(401);
    await t.http().post(list(proj.id)).send({ name: 'x' }).expect(401);
    await t.http().get(one(randomUUID())).expect(401);
  });

  it('conceals unreadable projects, other organizations and unknown ids (404)', async () => {
    const m = await create({}, hidden.id);
    await guest.http.get(list(hidden.id)).expect(404);
    await guest.http.get(one(m.id)).expect(404);
    await guest.http.patch(one(m.id)).send({ name: 'x' }).expect(404);
    await guest.http.post(list(hidden.id)).send({ name: 'x' }).expect(404);
    await other.owner.http.get(one(m.id)).expect(404);
    await other.owner.http.get(`/api/orgs/${other.id}/milestones/${m.id}`).expect(404);
    await org.owner.http.get(one(randomUUID())).expect(404);
    await org.owner.http.get(one('not-a-uuid')).expect(404);
    await org.owner.http.get(list(randomUUID())).expect(404);
  });

  it('create/update need edit: view-only members and guests get 403; editors may', async () => {
    await member.http
      .post(list(proj.id))
      .send({ name: uniq('m') })
      .expect(403);
    await guest.http
      .post(list(proj.id))
      .send({ name: uniq('g') })
      .expect(403);
    const m = (
      await editor.http
        .post(list(proj.id))
        .send({ name: uniq('e') })
        .expect(201)
    ).body.milestone;
    await member.http.patch(one(m.id)).send({ name: 'x' }).expect(403);
    const u = await editor.http.patch(one(m.id)).send({ status: 'completed', targetDate: '2032-02-29', description: 'd' }).expect(200);
    expect(u.body.milestone).toMatchObject({ status: 'completed', target_date: '2032-02-29', description: 'd', name: m.name });
    const cleared = await editor.http.patch(one(m.id)).send({ target_date: null, description: '' }).expect(200);
    expect(cleared.body.milestone).toMatchObject({ target_date: null, description: null });
  });

  it('names are unique per project case-insensitively (409); other projects may reuse them', async () => {
    const m = await create();
    const r = await org.owner.http.post(list(proj.id)).send({ name: m.name.toUpperCase() }).expect(409);
    expect(r.body.code).toBe('milestone_name_taken');
    await org.owner.http.post(list(hidden.id)).send({ name: m.name }).expect(201);
    const n = await create();
    await org.owner.http.patch(one(n.id)).send({ name: m.name.toLowerCase() }).expect(409);
    await org.owner.http.patch(one(m.id)).send({ name: m.name }).expect(200);
  });

  it('malformed input is 400', async () => {
    for (const body of [
      {},
      { name: '' },
      { name: '   ' },
      { name: 'x'.repeat(201) },
      { name: 5 },
      { name: 'ok', status: 'done' },
      { name: 'ok', target_date: '2023-02-29' },
      { name: 'ok', targetDate: 'tomorrow' },
      { name: 'ok', targetDate: '2031-01-01', due_date: '2031-01-02' },
      { name: 'ok', description: 7 },
    ]) {
      const r = await org.owner.http.post(list(proj.id)).send(body);
      expect([JSON.stringify(body), r.status]).toEqual([JSON.stringify(body), 400]);
    }
    const m = await create();
    await org.owner.http.patch(one(m.id)).send({ status: 'bogus' }).expect(400);
    await org.owner.http.patch(one(m.id)).send({ name: null }).expect(400);
    await org.owner.http.post(list(proj.id)).set('content-type', 'application/json').send('[1,2]').expect(400);
  });

  it('delete: owners and admins only (403 before lookup); issues keep existing without the milestone', async () => {
    const m = await create();
    const issue = await insertIssue(t, org.id, proj.id, { milestoneId: m.id });
    await editor.http.delete(one(m.id)).expect(403);
    await member.http.delete(one(randomUUID())).expect(403);
    await admin.http.delete(one(m.id)).expect(200, { success: true });
    await org.owner.http.get(one(m.id)).expect(404);
    await org.owner.http.delete(one(m.id)).expect(404);
    const rows = await t.db.query('SELECT milestone_id FROM issues WHERE org_id = $1 AND id = $2', [org.id, issue.id]);
    expect(rows).toEqual([{ milestone_id: null }]);
  });
});
