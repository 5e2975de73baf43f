import { randomUUID } from 'node:crypto';
import { type TestOrg, type TestUser, uniq } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import { activityRows, eventually, insertIssue, workTrackingWorld } from '../support/issues';
import { withoutDetails } from '../support/errors';

/**
 * Subtasks: child issues created in the parent's project with the create rules, listed for
 * readers, updated through the issue update, detached by DELETE; no cycles, depth limit.
 */
describe('subtasks', () => {
  let t: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  let member: TestUser;
  let editor: TestUser;
  let guest: TestUser;
  let proj: { id: string; key: string };
  let hidden: { id: string };
  const base = (issueId: string) => `/api/orgs/${org.id}/issues/${issueId}/subtasks`;
  const activity = (issueId: string, action: string) => activityRows(t, org.id, issueId, action);

  beforeAll(async () => {
    t = await startTestApp();
    ({ org, other, member, editor, guest, proj, hidden } = await workTrackingWorld(t));
  });
  afterAll(() => t.close());

  it('creates a subtask in the parent’s project: 201 { subtask, issue } with the next number, backlog default; activity on both', async () => {
    const parent = await insertIssue(t, org.id, proj.id);
    const title = uniq('child');
    const r = await editor.http.post(base(parent.id)).send({ title, priority: 1 }).expect(201);
    const s = r.body.subtask;
    expect(r.body.issue).toEqual(s);
    expect(s).toMatchObject({
      title,
      priority: 1,
      status: 'backlog',
      project_id: proj.id,
      parent_id: parent.id,
      number: parent.number + 1,
      identifier: `${proj.key}-${parent.number + 1}`,
    });
    expect(await eventually(async () => (await activity(parent.id, 'subtask.created')).length === 1)).toBe(true);
    expect((await activity(parent.id, 'subtask.created'))[0].metadata).toMatchObject({ subtask_id: s.id });
    const l = await guest.http.get(base(parent.id)).expect(200);
    expect(l.body.subtasks.map((x: any) => x.id)).toEqual([s.id]);
    expect(l.body.total).toBe(1);
    const listed = await org.owner.http.get(`/api/orgs/${org.id}/issues?parentId=${parent.id}`).expect(200);
    expect(listed.body.issues.map((x: any) => x.id)).toEqual([s.id]);
  });

  it('projectless parents get projectless subtasks (non-guests); guests never see them', async () => {
    const parent = await insertIssue(t, org.id, null);
    const r = await member.http
      .post(base(parent.id))
      .send({ title: uniq('loose') })
      .expect(201);
    expect(r.body.subtask).toMatchObject({ project_id: null, identifier: null, parent_id: parent.id });
    await guest.http.get(base(parent.id)).expect(404);
    await guest.http.post(base(parent.id)).send({ title: 'x' }).expect(404);
  });

  it('401 without authentication', async () => {
    const parent = await insertIssue(t, org.id, proj.id);
    await t.http().get(base(parent.id)).expect(401);
    await t.http().post(base(parent.id)).send({ title: 'x' }).expect(401);
    await t
      .http()
      .patch(`${base(parent.id)}/${randomUUID()}`)
      .send({ title: 'x' })
      .expect(401);
    await t
      .http()
      .delete(`${base(parent.id)}/${randomUUID()}`)
      .expect(401);
  });

  it('403 for view-only callers on every write; 404 for unreadable, foreign or unknown parents', async () => {
    const parent = await insertIssue(t, org.id, proj.id);
    const child = await insertIssue(t, org.id, proj.id, { parentId: parent.id });
    await member.http.post(base(parent.id)).send({ title: 'x' }).expect(403);
    await guest.http.post(base(parent.id)).send({ title: 'x' }).expect(403);
    await guest.http
      .patch(`${base(parent.id)}/${child.id}`)
      .send({ title: 'x' })
      .expect(403);
    await member.http.delete(`${base(parent.id)}/${child.id}`).expect(403);
    const secret = await insertIssue(t, org.id, hidden.id);
    await guest.http.get(base(secret.id)).expect(404);
    await guest.http.post(base(secret.id)).send({ title: 'x' }).expect(404);
    const foreign = await insertIssue(t, other.id, null);
    await org.owner.http.get(base(foreign.id)).expect(404);
    await org.owner.http.post(base(foreign.id)).send({ title: 'x' }).expect(404);
    await org.owner.http.get(base(randomUUID())).expect(404);
    expect((await org.owner.http.get(base('nope')).expect(400)).body.code).toBe('invalid_reference');
  });

  it('only readable children are listed', async () => {
    const parent = await insertIssue(t, org.id, proj.id);
    const visible = await insertIssue(t, org.id, proj.id, { parentId: parent.id });
    await insertIssue(t, org.id, hidden.id, { parentId: parent.id });
    const g = await guest.http.get(base(parent.id)).expect(200);
    expect(g.body.subtasks.map((x: any) => x.id)).toEqual([visible.id]);
    const o = await org.owner.http.get(base(parent.id)).expect(200);
    expect(o.body.subtasks).toHaveLength(2);
  });

  it('PATCH updates title/status/priority/assignee of a child of that parent; other issues are 404', async () => {
    const parent = await insertIssue(t, org.id, proj.id);
    const child = (
      await editor.http
        .post(base(parent.id))
        .send({ title: uniq('c') })
        .expect(201)
    ).body.subtask;
    const r = await editor.http
      .patch(`${base(parent.id)}/${child.id}`)
      .send({ title: 'Renamed', status: 'todo', priority: 0, assigneeId: org.ownerMemberId })
      .expect(200);
    expect(r.body.subtask).toMatchObject({ id: child.id, title: 'Renamed', status: 'todo', priority: 0, assignee_id: org.ownerMemberId, parent_id: parent.id });
    await editor.http
      .patch(`${base(parent.id)}/${child.id}`)
      .send({ status: 'no_such_status' })
      .expect(400);
    await editor.http
      .patch(`${base(parent.id)}/${child.id}`)
      .send({ priority: 9 })
      .expect(400);
    const stranger = await insertIssue(t, org.id, proj.id);
    await editor.http
      .patch(`${base(parent.id)}/${stranger.id}`)
      .send({ title: 'x' })
      .expect(404);
    await editor.http
      .patch(`${base(parent.id)}/not-a-uuid`)
      .send({ title: 'x' })
      .expect(404);
  });

  it('DELETE detaches the subtask (it stays as a top-level issue)', async () => {
    const parent = await insertIssue(t, org.id, proj.id);
    const child = (
      await editor.http
        .post(base(parent.id))
        .send({ title: uniq('c') })
        .expect(201)
    ).body.subtask;
    const d = await editor.http.delete(`${base(parent.id)}/${child.id}`).expect(200);
    expect(d.body).toMatchObject({ success: true, subtask: { id: child.id, parent_id: null } });
    expect((await org.owner.http.get(base(parent.id)).expect(200)).body.subtasks).toEqual([]);
    await editor.http.delete(`${base(parent.id)}/${child.id}`).expect(404);
    expect(await t.db.query('SELECT parent_id FROM issues WHERE org_id = $1 AND id = $2', [org.id, child.id])).toEqual([{ parent_id: null }]);
    expect(await eventually(async () => (await activity(parent.id, 'subtask.removed')).length === 1)).toBe(true);
    expect((await activity(parent.id, 'subtask.removed'))[0].metadata).toMatchObject({ subtask_id: child.id });
  });

  it('attaches an existing issue with { issueId }; cycles, self-parenting, other projects and too-deep trees are 400', async () => {
    const a = await insertIssue(t, org.id, proj.id);
    const b = await insertIssue(t, org.id, proj.id);
    const r = await editor.http.post(base(a.id)).send({ issueId: b.id }).expect(200);
    expect(r.body.subtask).toMatchObject({ id: b.id, parent_id: a.id });
    expect(await eventually(async () => (await activity(a.id, 'subtask.added')).length === 1)).toBe(true);
    await editor.http.post(base(a.id)).send({ issue_id: b.id }).expect(200);
    await editor.http.post(base(b.id)).send({ issueId: a.id }).expect(400);
    await editor.http.post(base(a.id)).send({ issueId: a.id }).expect(400);
    await editor.http.post(base(a.id)).send({ issueId: 'x' }).expect(400);
    const elsewhere = await insertIssue(t, org.id, hidden.id);
    await org.owner.http.post(base(a.id)).send({ issueId: elsewhere.id }).expect(400);
    await editor.http.post(base(a.id)).send({ issueId: elsewhere.id }).expect(403); // readable (member baseline) but not writable
    // depth: a > b > c > d > e is 5 levels; a sixth is refused
    let parent = b.id;
    for (let i = 0; i < 3; i++)
      parent = (
        await editor.http
          .post(base(parent))
          .send({ title: uniq('deep') })
          .expect(201)
      ).body.subtask.id;
    const r6 = await editor.http.post(base(parent)).send({ title: 'too deep' }).expect(400);
    expect(r6.body.error).toMatch(/levels/);
  });

  it('malformed bodies are 400 (never 500) and create nothing', async () => {
    const parent = await insertIssue(t, org.id, proj.id);
    for (const body of [
      {},
      { title: '' },
      { title: 5 },
      { title: 'x', status: 'bogus' },
      { title: 'x', priority: 9 },
      { title: 'x', projectId: hidden.id },
      { title: 'x', assigneeIds: 'x' },
      { title: 'x', dueDate: '2023-02-29' },
      { title: 'a\ud800b' }, // a lone surrogate was stored as U+FFFD, echoed, and its activity entry lost
      { title: 'x', description: '\udfff' },
      { title: 'a\u0000b' },
    ]) {
      const r = await editor.http.post(base(parent.id)).send(body);
      expect([JSON.stringify(body), r.status]).toEqual([JSON.stringify(body), 400]);
    }
    expect(await t.db.query('SELECT 1 FROM issues WHERE org_id = $1 AND parent_id = $2', [org.id, parent.id])).toHaveLength(0);
    const child = (await editor.http.post(base(parent.id)).send({ title: 'fine' }).expect(201)).body.subtask;
    const r = await editor.http
      .patch(`${base(parent.id)}/${child.id}`)
      .send({ title: 'b\ud800' })
      .expect(400);
    expect(withoutDetails(r.body)).toEqual({ error: 'title must be well-formed Unicode text (it contains an unpaired surrogate)', code: 'validation_failed' });
    expect((await t.db.query('SELECT title FROM issues WHERE org_id = $1 AND id = $2', [org.id, child.id]))[0].title).toBe('fine');
  });

  it('moving a subtask to another project detaches it; the parent detail never lists subtasks the caller cannot read', async () => {
    const parent = await insertIssue(t, org.id, proj.id);
    const child = (
      await org.owner.http
        .post(base(parent.id))
        .send({ title: uniq('mover') })
        .expect(201)
    ).body.subtask;
    const before = await guest.http.get(`/api/orgs/${org.id}/issues/${parent.id}`).expect(200);
    expect(before.body.issue.sub_tasks.map((x: any) => x.id)).toEqual([child.id]);
    const moved = await org.owner.http.patch(`/api/orgs/${org.id}/issues/${child.id}`).send({ projectId: hidden.id }).expect(200);
    expect(moved.body.issue).toMatchObject({ project_id: hidden.id, parent_id: null });
    const after = await guest.http.get(`/api/orgs/${org.id}/issues/${parent.id}`).expect(200);
    expect(after.body.issue.sub_tasks).toEqual([]);
    expect(JSON.stringify(after.body)).not.toContain(child.title);
    // a child in an unreadable project (linked directly in the database) is still concealed
    const hiddenChild = await insertIssue(t, org.id, hidden.id);
    await t.db.query('UPDATE issues SET parent_id = $3 WHERE org_id = $1 AND id = $2', [org.id, hiddenChild.id, parent.id]);
    const concealed = await guest.http.get(`/api/orgs/${org.id}/issues/${parent.id}`).expect(200);
    expect(concealed.body.issue.sub_tasks).toEqual([]);
    const owner = await org.owner.http.get(`/api/orgs/${org.id}/issues/${parent.id}`).expect(200);
    expect(owner.body.issue.sub_tasks.map((x: any) => x.id)).toEqual([hiddenChild.id]);
  });
});
