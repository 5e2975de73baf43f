import { randomUUID } from 'node:crypto';
import { type TestOrg, type TestUser, uniq } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import { activityRows, eventually, insertIssue, workTrackingWorld } from '../support/issues';

/** Labels on issues: GET (issue read), POST/DELETE (issue edit), same-organization labels, idempotent add. */
describe('issue labels', () => {
  let t: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  let member: TestUser;
  let editor: TestUser;
  let guest: TestUser;
  let proj: { id: string };
  let hidden: { id: string };
  let label: { id: string; name: string; color: string | null };
  let label2: { id: string };
  let foreignLabel: { id: string };
  const base = (issueId: string) => `/api/orgs/${org.id}/issues/${issueId}/labels`;
  const newLabel = async (o: TestOrg, body: Record<string, unknown> = {}) =>
    (
      await o.owner.http
        .post(`/api/orgs/${o.id}/labels`)
        .send({ name: uniq('lbl'), ...body })
        .expect(201)
    ).body.label;
  const activity = (issueId: string, action: string) => activityRows(t, org.id, issueId, action);

  beforeAll(async () => {
    t = await startTestApp();
    ({ org, other, member, editor, guest, proj, hidden } = await workTrackingWorld(t));
    label = await newLabel(org, { color: '#112233' });
    label2 = await newLabel(org);
    foreignLabel = await newLabel(other);
  });
  afterAll(() => t.close());

  it('adds a label (201), re-adding is idempotent (200, added: false), lists and removes it; activity published', async () => {
    const issue = await insertIssue(t, org.id, proj.id);
    const r = await editor.http.post(base(issue.id)).send({ labelId: label.id }).expect(201);
    expect(r.body).toMatchObject({ success: true, added: true, label: { id: label.id, name: label.name, color: '#112233' } });
    expect(r.body.labels.map((l: any) => l.id)).toEqual([label.id]);
    const again = await editor.http.post(base(issue.id)).send({ label_id: label.id }).expect(200);
    expect(again.body).toMatchObject({ success: true, added: false });
    await editor.http.post(base(issue.id)).send({ labelId: label2.id.toUpperCase() }).expect(201);
    const l = await guest.http.get(base(issue.id)).expect(200);
    expect(l.body.labels.map((x: any) => x.id)).toEqual([label.id, label2.id]);
    expect(Object.keys(l.body.labels[0]).sort()).toEqual(['color', 'description', 'id', 'name']);
    const listed = await org.owner.http.get(`/api/orgs/${org.id}/issues?projectId=${proj.id}&labelId=${label.id}`).expect(200);
    expect(listed.body.issues.map((i: any) => i.id)).toEqual([issue.id]);
    expect(listed.body.issues[0].label_ids).toEqual([label.id, label2.id]);
    const d = await editor.http.delete(`${base(issue.id)}/${label.id}`).expect(200);
    expect(d.body).toEqual({ success: true, labels: [expect.objectContaining({ id: label2.id })] });
    await editor.http.delete(`${base(issue.id)}/${label.id}`).expect(404);
    expect(await eventually(async () => (await activity(issue.id, 'label.added')).length === 2)).toBe(true);
    expect(await eventually(async () => (await activity(issue.id, 'label.removed')).length === 1)).toBe(true);
    expect((await activity(issue.id, 'label.removed'))[0].metadata).toMatchObject({ label_id: label.id });
  });

  it('projectless issues: non-guests may label them, guests never see them (404)', async () => {
    const issue = await insertIssue(t, org.id, null);
    await member.http.post(base(issue.id)).send({ labelId: label.id }).expect(201);
    await guest.http.get(base(issue.id)).expect(404);
    await guest.http.post(base(issue.id)).send({ labelId: label.id }).expect(404);
    await guest.http.delete(`${base(issue.id)}/${label.id}`).expect(404);
  });

  it('401 without authentication', async () => {
    const issue = await insertIssue(t, org.id, proj.id);
    await t.http().get(base(issue.id)).expect(401);
    await t.http().post(base(issue.id)).send({ labelId: label.id }).expect(401);
    await t
      .http()
      .delete(`${base(issue.id)}/${label.id}`)
      .expect(401);
  });

  it('view-only callers get 403 on writes; unreadable, foreign and unknown issues are 404', async () => {
    const issue = await insertIssue(t, org.id, proj.id);
    await member.http.post(base(issue.id)).send({ labelId: label.id }).expect(403);
    await guest.http.post(base(issue.id)).send({ labelId: label.id }).expect(403);
    await org.owner.http.post(base(issue.id)).send({ labelId: label.id }).expect(201);
    await guest.http.delete(`${base(issue.id)}/${label.id}`).expect(403);
    const secret = await insertIssue(t, org.id, hidden.id);
    await guest.http.get(base(secret.id)).expect(404);
    await guest.http.post(base(secret.id)).send({ labelId: label.id }).expect(404);
    const foreign = await insertIssue(t, other.id, null);
    await org.owner.http.get(base(foreign.id)).expect(404);
    await org.owner.http.get(base(randomUUID())).expect(404);
    expect((await org.owner.http.get(base('not-a-uuid')).expect(400)).body.code).toBe('invalid_reference');
  });

  it('label of another organization or unknown: 404; malformed body: 400', async () => {
    const issue = await insertIssue(t, org.id, proj.id);
    await org.owner.http.post(base(issue.id)).send({ labelId: foreignLabel.id }).expect(404);
    await org.owner.http.post(base(issue.id)).send({ labelId: randomUUID() }).expect(404);
    for (const body of [{}, { labelId: 'x' }, { labelId: 5 }, { labelId: null }, { labelId: label.id, label_id: label2.id }]) {
      const r = await org.owner.http.post(base(issue.id)).send(body);
      expect([JSON.stringify(body), r.status]).toEqual([JSON.stringify(body), 400]);
    }
    await org.owner.http.delete(`${base(issue.id)}/not-a-uuid`).expect(404);
    expect(await t.db.query('SELECT 1 FROM issue_labels WHERE org_id = $1 AND issue_id = $2', [org.id, issue.id])).toHaveLength(0);
  });
});
