import { AUTOMATION_ACTOR, DomainEvents, IssueActivityEvent } from '../../src/common/events/domain-events';
import { addMember, newOrg, newProject, newUser, randomId, type TestOrg, type TestUser } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';

let seq = 0;
async function newIssue(t: TestApp, org: TestOrg, projectId: string | null, createdBy: string | null = null): Promise<string> {
  const id = randomId();
  seq += 1;
  await t.db.query('INSERT INTO issues (org_id, id, project_id, number, title, status, created_by_member_id) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
    org.id,
    id,
    projectId,
    200000 + seq,
    'Issue',
    'todo',
    createdBy,
  ]);
  return id;
}

describe('activity', () => {
  let t: TestApp;
  let org: TestOrg;
  let project: { id: string };
  let hidden: { id: string };
  let editor: { user: TestUser; memberId: string };
  let guest: { user: TestUser; memberId: string };
  let outsider: TestOrg;
  let events: DomainEvents;
  /** Stages timeline entries in one transaction (as a writer does). */
  const stage = (...e: IssueActivityEvent[]) => t.db.transaction((m) => events.stage(m, ...e));

  const join = async (role: 'admin' | 'member' | 'guest') => {
    const user = await newUser(t, role);
    return { user, memberId: await addMember(t, org, user, role) };
  };
  const grant = (projectId: string, memberId: string, accessLevel: 'view' | 'edit' | 'admin') =>
    org.owner.http.post(`/api/orgs/${org.id}/projects/${projectId}/members`).send({ memberId, accessLevel }).expect(201);
  const issueUrl = (issueId: string) => `/api/orgs/${org.id}/issues/${issueId}/activity`;
  const orgUrl = () => `/api/orgs/${org.id}/activity`;
  const comment = (u: TestUser, issueId: string, body = 'hello') =>
    u.http
      .post(`/api/orgs/${org.id}/issues/${issueId}/comments`)
      .send({ body })
      .expect(201)
      .then((r) => r.body.comment);

  beforeAll(async () => {
    t = await startTestApp();
    events = t.app.get(DomainEvents);
    org = await newOrg(t);
    project = await newProject(t, org);
    hidden = await newProject(t, org);
    editor = await join('member');
    await grant(project.id, editor.memberId, 'edit');
    await grant(hidden.id, editor.memberId, 'edit');
    guest = await join('guest');
    await grant(project.id, guest.memberId, 'view');
    outsider = await newOrg(t);
  });
  afterAll(() => t.close());

  describe('issue timeline', () => {
    it('records comment events newest first with the current actor and the immutable snapshot', async () => {
      const i = await newIssue(t, org, project.id);
      const c1 = await comment(editor.user, i, 'one');
      const c2 = await comment(editor.user, i, 'two');
      const res = await guest.user.http.get(issueUrl(i)).expect(200);
      expect(res.body).toMatchObject({ limit: 50, offset: 0, hasMore: false });
      expect(res.body.items).toEqual(res.body.data);
      expect(res.body.data.map((e: any) => [e.action, e.metadata.comment_id])).toEqual([
        ['comment.created', c2.id],
        ['comment.created', c1.id],
      ]);
      const e = res.body.data[0];
      expect(e).toMatchObject({
        issue_id: i,
        project_id: project.id,
        actor_id: editor.memberId,
        actor: { id: editor.memberId, display_name: editor.user.name, type: 'human', avatar_url: null },
      });
      expect(e.metadata.actor).toEqual({ id: editor.memberId, display_name: editor.user.name, type: 'human', avatar_url: null });
      expect(new Date(e.created_at).toISOString()).toBe(e.created_at);
      expect(typeof e.id).toBe('string');
      // the top-level actor follows the member record; metadata.actor does not change
      await t.db.query('UPDATE members SET display_name = $3 WHERE org_id = $1 AND id = $2', [org.id, editor.memberId, 'Renamed Person']);
      const again = await guest.user.http.get(issueUrl(i)).expect(200);
      expect(again.body.data[0].actor.display_name).toBe('Renamed Person');
      expect(again.body.data[0].metadata.actor.display_name).toBe(editor.user.name);
      await t.db.query('UPDATE members SET display_name = $3 WHERE org_id = $1 AND id = $2', [org.id, editor.memberId, editor.user.name]);
    });

    it('an automation comment.created has no actor and keeps automation provenance in metadata', async () => {
      const i = await newIssue(t, org, project.id);
      await stage(new IssueActivityEvent(org.id, i, project.id, null, AUTOMATION_ACTOR, 'comment.created', { comment_id: randomId() }));
      const res = await editor.user.http.get(issueUrl(i)).expect(200);
      expect(res.body.data).toHaveLength(1);
      expect(res.body.data[0]).toMatchObject({ action: 'comment.created', actor_id: null, actor: null });
      expect(res.body.data[0].metadata.actor).toEqual({ display_name: 'Automation', type: 'automation' });
    });

    it('limit defaults to 50 and clamps to 1..100; offset pages; non-numeric 400', async () => {
      const i = await newIssue(t, org, project.id);
      for (let n = 0; n < 3; n++)
        await stage(
          new IssueActivityEvent(
            org.id,
            i,
            project.id,
            editor.memberId,
            { id: editor.memberId, display_name: 'E', type: 'human', avatar_url: null },
            'issue.updated',
            { changed_fields: ['title'], n },
          ),
        );
      const one = await editor.user.http.get(issueUrl(i)).query({ limit: 0 }).expect(200);
      expect(one.body).toMatchObject({ limit: 1, offset: 0, hasMore: true });
      expect(one.body.data.map((e: any) => e.metadata.n)).toEqual([2]);
      const page = await editor.user.http.get(issueUrl(i)).query({ limit: 1, offset: 2 }).expect(200);
      expect(page.body).toMatchObject({ limit: 1, offset: 2, hasMore: false });
      expect(page.body.data.map((e: any) => e.metadata.n)).toEqual([0]);
      expect((await editor.user.http.get(issueUrl(i)).query({ limit: 500 }).expect(200)).body.limit).toBe(100);
      await editor.user.http.get(issueUrl(i)).query({ limit: 'abc' }).expect(400);
      await editor.user.http.get(issueUrl(i)).query({ limit: '1.5' }).expect(400);
      await editor.user.http.get(issueUrl(i)).query({ offset: '-1' }).expect(400);
      await editor.user.http.get(issueUrl(i)).query({ offset: 'x' }).expect(400);
    });

    it('401; 404 for other org, non-UUID, unknown, unreadable and (for guests) projectless issues', async () => {
      const i = await newIssue(t, org, project.id);
      const h = await newIssue(t, org, hidden.id);
      const pl = await newIssue(t, org, null);
      await t.http().get(issueUrl(i)).expect(401);
      await outsider.owner.http.get(issueUrl(i)).expect(404);
      await outsider.owner.http.get(`/api/orgs/${outsider.id}/issues/${i}/activity`).expect(404);
      expect((await editor.user.http.get(issueUrl('nope')).expect(400)).body.code).toBe('invalid_reference');
      await editor.user.http.get(issueUrl(randomId())).expect(404);
      await guest.user.http.get(issueUrl(h)).expect(404);
      await guest.user.http.get(issueUrl(pl)).expect(404);
      await editor.user.http.get(issueUrl(pl)).expect(200);
    });
  });

  describe('organization feed', () => {
    it('returns { data, currentMemberId, limit, offset, hasMore } limited to readable issues', async () => {
      const visible = await newIssue(t, org, project.id);
      const secret = await newIssue(t, org, hidden.id);
      const pl = await newIssue(t, org, null);
      const cv = await comment(editor.user, visible);
      const cs = await comment(editor.user, secret);
      const cp = await comment(editor.user, pl);
      const g = await guest.user.http.get(orgUrl()).query({ limit: 100 }).expect(200);
      expect(g.body).toMatchObject({ currentMemberId: guest.memberId, limit: 100, offset: 0 });
      const gIds = g.body.data.map((e: any) => e.metadata.comment_id);
      expect(gIds).toContain(cv.id);
      expect(gIds).not.toContain(cs.id);
      expect(gIds).not.toContain(cp.id);
      const o = await org.owner.http.get(orgUrl()).expect(200);
      expect(o.body).toMatchObject({ currentMemberId: org.ownerMemberId, limit: 25, offset: 0 });
      const oIds = o.body.data.map((e: any) => e.metadata.comment_id);
      expect(oIds.slice(0, 3)).toEqual([cp.id, cs.id, cv.id]);
      const times = o.body.data.map((e: any) => e.created_at);
      expect([...times].sort().reverse()).toEqual(times);
    });

    it('filter=by_me and filter=mine (assignee, assignee list, creator); paging and validation', async () => {
      const other = await join('admin');
      const assigned = await newIssue(t, org, project.id);
      await t.db.query('UPDATE issues SET assignee_id = $3 WHERE org_id = $1 AND id = $2', [org.id, assigned, other.memberId]);
      const listed = await newIssue(t, org, project.id);
      await t.db.query('INSERT INTO issue_assignees (org_id, issue_id, member_id) VALUES ($1, $2, $3)', [org.id, listed, other.memberId]);
      const created = await newIssue(t, org, project.id, other.memberId);
      const unrelated = await newIssue(t, org, project.id);
      const a = await comment(editor.user, assigned);
      const b = await comment(editor.user, listed);
      const c = await comment(editor.user, created);
      const d = await comment(editor.user, unrelated);
      const mine = await other.user.http.get(orgUrl()).query({ filter: 'mine' }).expect(200);
      expect(mine.body.data.map((e: any) => e.metadata.comment_id)).toEqual([c.id, b.id, a.id]);
      const own = await comment(other.user, unrelated);
      const byMe = await other.user.http.get(orgUrl()).query({ filter: 'by_me' }).expect(200);
      expect(byMe.body.data.map((e: any) => e.metadata.comment_id)).toEqual([own.id]);
      const all = await other.user.http.get(orgUrl()).query({ filter: 'all', limit: 2 }).expect(200);
      expect(all.body).toMatchObject({ limit: 2, hasMore: true });
      expect(all.body.data.map((e: any) => e.metadata.comment_id)).toEqual([own.id, d.id]);
      const next = await other.user.http.get(orgUrl()).query({ limit: 2, offset: 2 }).expect(200);
      expect(next.body.data.map((e: any) => e.metadata.comment_id)).toEqual([c.id, b.id]);
      expect((await other.user.http.get(orgUrl()).query({ limit: 1000 }).expect(200)).body.limit).toBe(100);
      await other.user.http.get(orgUrl()).query({ filter: 'everything' }).expect(400);
      await other.user.http.get(orgUrl()).query({ limit: 'x' }).expect(400);
      await other.user.http.get(orgUrl()).query({ limit: 0 }).expect(400);
      await other.user.http.get(orgUrl()).query({ offset: '-3' }).expect(400);
    });

    it('401 and 404 for non-members', async () => {
      await t.http().get(orgUrl()).expect(401);
      await outsider.owner.http.get(orgUrl()).expect(404);
    });
  });
});
