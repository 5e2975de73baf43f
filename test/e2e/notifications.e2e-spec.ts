import { CommentAddedEvent, IssueChangedEvent, MEMBER_ORIGIN } from '../../src/common/events/domain-events';
import { actorForMember } from '../../src/common/auth/principal';
import { NotificationsFanout } from '../../src/modules/notifications/notifications-fanout.handler';
import { toNotificationResponse } from '../../src/modules/notifications/notifications.mapper';
import { NotificationsReader } from '../../src/modules/notifications/notifications.reader';
import { startTestApp, type TestApp } from '../support/app';
import { addMember, bearer, newAgent, newProject, newUser, randomId, type TestUser, uniq } from '../support/factories';
import { eventually, grant, insertIssue, workTrackingWorld, type WorkTrackingWorld } from '../support/issues';

/**
 * Notifications: created after commit from domain events (mentions, assignments, assignee
 * comments, direct replies, creator status changes), read and acknowledged per member with the
 * caller's current access, and per-member preferences.
 */
describe('notifications', () => {
  let t: TestApp;
  let w: WorkTrackingWorld;
  let memberId: string;
  let agent: { memberId: string; key: string };

  type Client = { get: (p: string) => any; post: (p: string) => any; patch: (p: string) => any; delete: (p: string) => any };
  const base = () => `/api/orgs/${w.org.id}`;
  const owner = (): Client => w.org.owner.http;
  const agentHttp = (): Client => bearer(t, agent.key);

  const inbox = async (c: Client, qs = ''): Promise<any[]> => (await c.get(`${base()}/notifications${qs}`).expect(200)).body.notifications;
  /** Polls the inbox until a notification matching `pred` shows up (handlers run after commit). */
  const waitFor = async (c: Client, pred: (n: any) => boolean): Promise<any> => {
    let found: any;
    await eventually(async () => !!(found = (await inbox(c, '?limit=100')).find(pred)));
    if (!found) throw new Error('expected notification did not arrive');
    return found;
  };
  /** Every stored row (read or not) for a recipient about an issue. */
  const rowsFor = (recipient: string, issueId: string): Promise<Array<{ event_type: string; comment_id: string | null; acknowledged_at: Date | null }>> =>
    t.db.query('SELECT event_type, comment_id, acknowledged_at FROM notifications WHERE org_id = $1 AND recipient_member_id = $2 AND issue_id = $3', [
      w.org.id,
      recipient,
      issueId,
    ]);

  const newIssue = async (c: Client, body: Record<string, unknown> = {}) =>
    (
      await c
        .post(`${base()}/issues`)
        .send({ title: uniq('Notif'), projectId: w.proj.id, ...body })
        .expect(201)
    ).body.issue as { id: string; title: string };
  const comment = async (c: Client, issueId: string, body: Record<string, unknown>) =>
    (await c.post(`${base()}/issues/${issueId}/comments`).send(body).expect(201)).body;
  const join = async (role: 'member' | 'guest'): Promise<{ user: TestUser; id: string }> => {
    const user = await newUser(t, role);
    return { user, id: await addMember(t, w.org, user, role) };
  };

  beforeAll(async () => {
    t = await startTestApp();
    w = await workTrackingWorld(t);
    memberId = (await w.member.http.get(`${base()}/profile`).expect(200)).body.member.id;
    const a = await newAgent(t, w.org, {});
    agent = { memberId: a.memberId, key: a.key };
    await grant(w.org, w.proj.id, agent.memberId, 'edit');
  });
  afterAll(() => t.close());

  describe('creation', () => {
    it('a mention notifies the target with ids and a title snapshot, never the comment body', async () => {
      const issue = await newIssue(owner());
      const res = await comment(owner(), issue.id, { body: 'secret body words', mentions: [{ member_id: memberId }] });
      expect(res.mentions).toEqual({ requested: 1, created: 1, skipped: [] });
      const n = await waitFor(w.member.http, (x) => x.issue_id === issue.id);
      expect(n).toMatchObject({
        event_type: 'mention.created',
        severity: 'warning',
        action_kind: 'respond_to_comment',
        title: issue.title,
        resource_type: 'issue',
        resource_id: issue.id,
        issue_id: issue.id,
        project_id: w.proj.id,
        comment_id: res.comment.id,
        reply_to_comment_id: null,
        actor_id: w.org.ownerMemberId,
        actor_type: 'human',
        acknowledged_at: null,
        ack_endpoint: `${base()}/notifications/${n.id}/ack`,
      });
      expect(JSON.stringify(n)).not.toContain('secret body words');
      const [stored] = await t.db.query('SELECT row_to_json(n)::text AS j FROM notifications n WHERE org_id = $1 AND id = $2', [w.org.id, n.id]);
      expect(stored.j).not.toContain('secret body words');
    });

    it('an assignment notifies the new assignee (start_work); assigning yourself notifies nobody', async () => {
      const issue = await newIssue(owner());
      await owner().patch(`${base()}/issues/${issue.id}`).send({ assigneeId: w.editorId }).expect(200);
      const n = await waitFor(w.editor.http, (x) => x.issue_id === issue.id);
      expect(n).toMatchObject({ event_type: 'issue.assigned', severity: 'warning', action_kind: 'start_work', comment_id: null });

      const own = await newIssue(w.editor.http, { assigneeId: w.editorId });
      // a later notification about the same issue proves the earlier event was handled
      await owner()
        .patch(`${base()}/issues/${own.id}`)
        .send({ assigneeIds: [w.editorId, memberId] })
        .expect(200);
      await waitFor(w.member.http, (x) => x.issue_id === own.id);
      expect(await rowsFor(w.editorId, own.id)).toEqual([]);
    });

    it('comments on an issue you are assigned to notify you (review_issue); your own comment does not', async () => {
      const issue = await newIssue(owner(), { assigneeIds: [w.editorId, memberId] });
      await waitFor(w.editor.http, (x) => x.issue_id === issue.id && x.event_type === 'issue.assigned');
      const c = await comment(w.editor.http, issue.id, { body: 'progress note' });
      const n = await waitFor(w.member.http, (x) => x.comment_id === c.comment.id);
      expect(n).toMatchObject({ event_type: 'comment.added', severity: 'info', action_kind: 'review_issue', actor_id: w.editorId });
      expect((await rowsFor(w.editorId, issue.id)).map((r) => r.event_type)).toEqual(['issue.assigned']);
    });

    it('a direct reply notifies the parent author; a mention of an assignee gives one notification per comment (mention wins)', async () => {
      const issue = await newIssue(owner(), { assigneeId: w.editorId });
      const parent = await comment(w.editor.http, issue.id, { body: 'question' });
      const reply = await comment(owner(), issue.id, { body: 'answer', reply_to_comment_id: parent.comment.id, mentions: [{ member_id: w.editorId }] });
      const n = await waitFor(w.editor.http, (x) => x.comment_id === reply.comment.id);
      expect(n).toMatchObject({ event_type: 'mention.created', reply_to_comment_id: parent.comment.id });
      expect((await rowsFor(w.editorId, issue.id)).filter((r) => r.comment_id === reply.comment.id)).toHaveLength(1);

      const plain = await comment(owner(), issue.id, { body: 'plain reply', reply_to_comment_id: parent.comment.id });
      const r = await waitFor(w.editor.http, (x) => x.comment_id === plain.comment.id);
      expect(r).toMatchObject({ event_type: 'comment.added', severity: 'warning', action_kind: 'respond_to_comment', reply_to_comment_id: parent.comment.id });
    });

    it("a human reply to an agent's routed comment asks the agent to resume its thread, with the routing", async () => {
      const issue = await newIssue(owner());
      const parent = await comment(agentHttp(), issue.id, { body: 'agent says', source_metadata: { harness: 'codex', thread_id: 'th-42', host_id: 'h1' } });
      const reply = await comment(w.editor.http, issue.id, { body: 'human answers', reply_to_comment_id: parent.comment.id });
      const n = await waitFor(agentHttp(), (x) => x.comment_id === reply.comment.id);
      expect(n).toMatchObject({
        event_type: 'comment.added',
        action_kind: 'resume_agent_thread',
        reply_to_comment_id: parent.comment.id,
        metadata: { routing: { harness: 'codex', thread_id: 'th-42', host_id: 'h1' } },
      });
      const m = await comment(owner(), issue.id, { body: 'ping agent', mentions: [{ member_id: agent.memberId }] });
      const mn = await waitFor(agentHttp(), (x) => x.comment_id === m.comment.id);
      expect(mn).toMatchObject({ event_type: 'mention.created', action_kind: 'resume_agent_thread', metadata: {} });
    });

    it('a status change notifies the creator who can still read the issue, not the one who changed it', async () => {
      const issue = await newIssue(w.editor.http);
      await owner().patch(`${base()}/issues/${issue.id}`).send({ status: 'in_progress' }).expect(200);
      const n = await waitFor(w.editor.http, (x) => x.issue_id === issue.id);
      expect(n).toMatchObject({
        event_type: 'issue.status_changed',
        severity: 'info',
        action_kind: 'review_issue',
        metadata: { status_from: 'backlog', status_to: 'in_progress' },
      });

      // own status change: nothing
      await w.editor.http.patch(`${base()}/issues/${issue.id}`).send({ status: 'todo' }).expect(200);
      // a creator who lost access: nothing
      const g = await join('guest');
      const p2 = await newProject(t, w.org);
      await grant(w.org, p2.id, g.id, 'edit');
      const gi = await newIssue(g.user.http, { projectId: p2.id });
      await owner().delete(`${base()}/projects/${p2.id}/members?memberId=${g.id}`).expect(200);
      await owner().patch(`${base()}/issues/${gi.id}`).send({ status: 'done', assigneeId: memberId }).expect(200);
      await waitFor(w.member.http, (x) => x.issue_id === gi.id);
      await owner().patch(`${base()}/issues/${issue.id}`).send({ assigneeId: memberId }).expect(200);
      await waitFor(w.member.http, (x) => x.issue_id === issue.id);
      expect((await rowsFor(w.editorId, issue.id)).map((r) => r.event_type)).toEqual(['issue.status_changed']);
      expect(await rowsFor(g.id, gi.id)).toEqual([]);
    });

    it('a replayed event creates nothing new; members removed from the organization get nothing', async () => {
      const issue = await newIssue(owner());
      const gone = await join('member');
      await owner().delete(`${base()}/members/${gone.id}`).expect(200);
      const facts = {
        status: 'backlog',
        priority: 2,
        projectId: w.proj.id,
        assigneeIds: [memberId, gone.id],
        title: issue.title,
        number: 1,
        createdByMemberId: w.org.ownerMemberId,
        archived: false,
      };
      const e = new IssueChangedEvent(
        w.org.id,
        issue.id,
        'updated',
        { memberId: w.org.ownerMemberId, type: 'human', displayName: 'o' },
        { ...facts, assigneeIds: [] },
        facts,
        ['assignee_ids'],
        [memberId, gone.id],
        MEMBER_ORIGIN,
      );
      const fanout = t.app.get(NotificationsFanout);
      await t.db.transaction((m) => fanout.onStaged(m, e));
      await t.db.transaction((m) => fanout.onStaged(m, e));
      // an unknown comment: the foreign key refuses it, which rolls back the change that staged it
      const c = new CommentAddedEvent(
        w.org.id,
        issue.id,
        w.proj.id,
        randomId(),
        { memberId: null, type: 'automation', displayName: 'Automation' },
        null,
        null,
        [memberId],
        MEMBER_ORIGIN,
      );
      await expect(t.db.transaction((m) => fanout.onStaged(m, c))).rejects.toThrow();
      expect(await rowsFor(memberId, issue.id)).toHaveLength(1);
      expect(await rowsFor(gone.id, issue.id)).toEqual([]);
    });
  });

  describe('GET /notifications', () => {
    it('lists unread newest first with paging in both shapes; bad paging is 400; 401; other organization 404', async () => {
      const u = await join('member');
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const issue = await newIssue(owner(), { assigneeId: u.id });
        ids.push(issue.id);
        await waitFor(u.user.http, (x) => x.issue_id === issue.id);
      }
      const all = await inbox(u.user.http);
      expect(all.map((n) => n.issue_id)).toEqual([...ids].reverse());
      const legacy = (await u.user.http.get(`${base()}/notifications?limit=2&offset=1`).expect(200)).body;
      expect(legacy).toMatchObject({ total: 3, limit: 2, offset: 1 });
      expect(legacy.notifications.map((n: any) => n.issue_id)).toEqual([ids[1], ids[0]]);
      const env = (await u.user.http.get(`${base()}/notifications?shape=envelope&limit=2`).expect(200)).body;
      expect(env).toMatchObject({ resource: 'notifications', total: 3, limit: 2, offset: 0, nextOffset: 2, truncated: true });
      expect(env.items).toHaveLength(2);
      expect((await u.user.http.get(`${base()}/notifications?limit=500`).expect(200)).body.limit).toBe(100);
      for (const q of ['limit=-1', 'limit=abc', 'offset=-5', 'offset=x', 'shape=weird']) await u.user.http.get(`${base()}/notifications?${q}`).expect(400);
      await t.http().get(`${base()}/notifications`).expect(401);
      await w.other.owner.http.get(`${base()}/notifications`).expect(404);
      await u.user.http.get(`/api/orgs/${w.other.id}/notifications`).expect(404);
    });

    it('hides notifications about issues the caller can no longer read, and shows them again when access returns', async () => {
      const g = await join('guest');
      const p = await newProject(t, w.org);
      await grant(w.org, p.id, g.id, 'view');
      const issue = await newIssue(owner(), { projectId: p.id });
      await comment(owner(), issue.id, { body: 'look', mentions: [{ member_id: g.id }] });
      const n = await waitFor(g.user.http, (x) => x.issue_id === issue.id);
      await owner().delete(`${base()}/projects/${p.id}/members?memberId=${g.id}`).expect(200);
      expect(await inbox(g.user.http)).toEqual([]);
      expect((await g.user.http.get(`${base()}/notifications`).expect(200)).body.total).toBe(0);
      await g.user.http.post(`${base()}/notifications/${n.id}/ack`).expect(404);
      await grant(w.org, p.id, g.id, 'view');
      expect((await inbox(g.user.http)).map((x) => x.id)).toEqual([n.id]);
    });

    it('hides a notification whose comment was deleted, and refuses to acknowledge it (404)', async () => {
      const u = await join('member');
      const issue = await newIssue(owner());
      const c = await comment(owner(), issue.id, { body: 'soon gone', mentions: [{ member_id: u.id }] });
      const n = await waitFor(u.user.http, (x) => x.comment_id === c.comment.id);
      await owner().delete(`${base()}/issues/${issue.id}/comments/${c.comment.id}`).expect(200);
      expect((await inbox(u.user.http, '?limit=100')).some((x) => x.id === n.id)).toBe(false);
      await u.user.http.post(`${base()}/notifications/${n.id}/ack`).expect(404);
    });
  });

  describe('NotificationsReader (reused by the heartbeat)', () => {
    it('pages unread notifications and counts them by type, with the same access filter', async () => {
      const u = await join('member');
      const a = await newIssue(owner(), { assigneeId: u.id });
      await comment(owner(), a.id, { body: 'hi', mentions: [{ member_id: u.id }] });
      await waitFor(u.user.http, (x) => x.event_type === 'mention.created');
      await waitFor(u.user.http, (x) => x.event_type === 'issue.assigned');
      const [row] = await t.db.query('SELECT id, type, role, display_name, agent_scope, owner_member_id FROM members WHERE org_id = $1 AND id = $2', [
        w.org.id,
        u.id,
      ]);
      const reader = t.app.get(NotificationsReader);
      const actor = actorForMember(w.org.id, row);
      expect(await reader.unreadCountsByType(actor)).toEqual({
        total: 2,
        by_type: {
          'mention.created': 1,
          'issue.assigned': 1,
          'comment.added': 0,
          'issue.status_changed': 0,
          'attention.resolved': 0,
          'verification.completed': 0,
        },
      });
      const page = await reader.unreadFor(actor, { limit: 1, offset: 1 });
      expect(page.total).toBe(2);
      expect(page.items.map((n) => n.event_type)).toEqual(['issue.assigned']);
    });
  });

  describe('NotificationsReader.unreadSummaryIn (the heartbeat: one statement)', () => {
    it('gives the same page, total and counts as unreadIn and unreadCountsIn, byte for byte, under every scope and page', async () => {
      const u = await join('member');
      const readable = await insertIssue(t, w.org.id, w.proj.id, {});
      const hidden = await insertIssue(t, w.org.id, w.hidden.id, {});
      const projectless = await insertIssue(t, w.org.id, null, {});
      const [live] = await t.db.query(
        `INSERT INTO comments (org_id, issue_id, author_type, author_member_id, body) VALUES ($1, $2, 'member', $3, '<p>live</p>') RETURNING id`,
        [w.org.id, readable.id, w.org.ownerMemberId],
      );
      const [gone] = await t.db.query(
        `INSERT INTO comments (org_id, issue_id, author_type, author_member_id, body, deleted_at) VALUES ($1, $2, 'member', $3, '<p>gone</p>', now()) RETURNING id`,
        [w.org.id, readable.id, w.org.ownerMemberId],
      );
      // [event type, issue, project (issueless rows), comment, created (ms ago; equal ones tie: id decides), acknowledged]
      const seeds: Array<[string, string | null, string | null, string | null, number, boolean]> = [
        ['mention.created', readable.id, null, live.id, 5000, false],
        ['mention.created', readable.id, null, gone.id, 4000, false],
        ['issue.assigned', readable.id, null, null, 3000, false],
        ['issue.assigned', hidden.id, null, null, 3000, false],
        ['comment.added', projectless.id, null, null, 3000, false],
        ['comment.added', readable.id, null, live.id, 3000, false],
        ['issue.status_changed', readable.id, null, null, 2000, true],
        ['issue.status_changed', hidden.id, null, null, 1500, false],
        ['attention.resolved', null, w.proj.id, null, 1000, false],
        ['verification.completed', null, w.hidden.id, null, 1000, false],
        ['verification.completed', null, null, null, 1000, false],
        ['mention.created', projectless.id, null, null, 500, false],
      ];
      const now = Date.now();
      for (const [event, issue, project, commentId, ago, acked] of seeds) {
        await t.db.query(
          `INSERT INTO notifications (org_id, recipient_member_id, event_type, severity, action_kind, issue_id, project_id, comment_id, actor_member_id, actor_type,
                                      title, metadata, created_at, acknowledged_at)
           VALUES ($1, $2, $3, 'info', 'review_issue', $4, $5, $6, $7, 'human', $8, $9::jsonb, $10, CASE WHEN $11::boolean THEN $10::timestamptz END)`,
          [
            w.org.id,
            u.id,
            event,
            issue,
            project,
            commentId,
            w.org.ownerMemberId,
            uniq('t'),
            JSON.stringify({ n: ago, nested: { at: 'x' } }),
            new Date(now - ago),
            acked,
          ],
        );
      }
      const reader = t.app.get(NotificationsReader);
      const scope = (allProjects: boolean, projectIds: string[], projectlessToo: boolean) => ({
        orgId: w.org.id,
        memberId: u.id,
        allProjects,
        projectIds,
        projectless: projectlessToo,
      });
      const scopes = [
        scope(true, [], true),
        scope(false, [w.proj.id], false),
        scope(false, [w.hidden.id], true),
        scope(false, [], false),
        { ...scope(true, [], true), memberId: randomId() },
      ];
      let compared = 0;
      for (const s of scopes) {
        const counts = await reader.unreadCountsIn(s);
        const { total } = await reader.unreadIn(s, { limit: 1, offset: 0 });
        for (const page of [
          { limit: 100, offset: 0 },
          { limit: 1, offset: 0 },
          { limit: 3, offset: 2 },
          { limit: 5, offset: Math.max(0, total - 1) },
          { limit: 5, offset: total },
          { limit: 5, offset: total + 10 },
        ]) {
          const old = await reader.unreadIn(s, page);
          const one = await reader.unreadSummaryIn(s, page);
          expect(one).toEqual({ ...old, counts });
          // the same values and types (dates stay dates), the same keys in the same order
          expect(JSON.stringify(one)).toBe(JSON.stringify({ ...old, counts }));
          for (const [i, r] of one.items.entries()) {
            expect(Object.keys(r)).toEqual(Object.keys(old.items[i]));
            expect(r.created_at).toBeInstanceOf(Date);
            expect(r.acknowledged_at).toBeNull();
            expect(toNotificationResponse(r)).toEqual(toNotificationResponse(old.items[i]));
          }
          compared += one.items.length;
        }
      }
      expect(compared).toBeGreaterThan(0);
      // every visible unread one: not the acknowledged one nor the deleted comment's
      const all = await reader.unreadSummaryIn(scopes[0], { limit: 100, offset: 0 });
      expect(all.total).toBe(10);
      expect(all.counts.by_type).toEqual({
        'mention.created': 2,
        'issue.assigned': 2,
        'comment.added': 2,
        'issue.status_changed': 1,
        'attention.resolved': 1,
        'verification.completed': 2,
      });
      // a guest-like scope (one project, no projectless issues): the readable project's only, newest first
      const narrow = await reader.unreadSummaryIn(scopes[1], { limit: 100, offset: 0 });
      expect(narrow.total).toBe(4);
      expect(narrow.items.map((n) => n.event_type)).toEqual(['attention.resolved', expect.any(String), expect.any(String), 'mention.created']);
      expect(
        narrow.items
          .slice(1, 3)
          .map((n) => n.event_type)
          .sort(),
      ).toEqual(['comment.added', 'issue.assigned']);
      // equal creation times: the greater id first
      expect(narrow.items[1].id > narrow.items[2].id).toBe(true);
      expect(await reader.unreadSummaryIn(scopes[3], { limit: 100, offset: 0 })).toEqual({
        items: [],
        total: 0,
        counts: { total: 0, by_type: Object.fromEntries(Object.keys(all.counts.by_type).map((k) => [k, 0])) },
      });
    });
  });

  describe('POST /notifications/{id}/ack', () => {
    it('returns exactly { notification: { id, acknowledged_at } }, is idempotent and removes it from the list', async () => {
      const issue = await newIssue(owner(), { assigneeId: memberId });
      const n = await waitFor(w.member.http, (x) => x.issue_id === issue.id);
      const first = (await w.member.http.post(`${base()}/notifications/${n.id}/ack`).expect(200)).body;
      expect(Object.keys(first)).toEqual(['notification']);
      expect(Object.keys(first.notification).sort()).toEqual(['acknowledged_at', 'id']);
      expect(first.notification.id).toBe(n.id);
      expect(new Date(first.notification.acknowledged_at).toISOString()).toBe(first.notification.acknowledged_at);
      const second = (await w.member.http.post(`${base()}/notifications/${n.id}/ack`).expect(200)).body;
      expect(second).toEqual(first);
      // a client that sends a JSON content type with no body at all is not refused
      const third = (await w.member.http.post(`${base()}/notifications/${n.id}/ack`).set('content-type', 'application/json').expect(200)).body;
      expect(third).toEqual(first);
      await w.member.http.post(`${base()}/notifications/${n.id}/ack`).set('content-type', 'application/json').send('{"a":').expect(400);
      expect((await inbox(w.member.http, '?limit=100')).some((x) => x.id === n.id)).toBe(false);
    });

    it("someone else's or unknown is 404, a malformed id 400, no credentials 401, another organization 404", async () => {
      const issue = await newIssue(owner(), { assigneeId: memberId });
      const n = await waitFor(w.member.http, (x) => x.issue_id === issue.id);
      await w.editor.http.post(`${base()}/notifications/${n.id}/ack`).expect(404);
      await owner().post(`${base()}/notifications/${n.id}/ack`).expect(404);
      await w.member.http.post(`${base()}/notifications/${randomId()}/ack`).expect(404);
      const bad = await w.member.http.post(`${base()}/notifications/not-a-uuid/ack`).expect(400);
      expect(bad.body).toMatchObject({ code: 'validation_failed' });
      await t.http().post(`${base()}/notifications/${n.id}/ack`).expect(401);
      await w.other.owner.http.post(`${base()}/notifications/${n.id}/ack`).expect(404);
      await w.member.http.post(`/api/orgs/${w.other.id}/notifications/${n.id}/ack`).expect(404);
      expect((await inbox(w.member.http, '?limit=100')).some((x) => x.id === n.id)).toBe(true);
    });
  });

  describe('preferences', () => {
    const prefs = (_c: Client) => `${base()}/notifications/preferences`;

    it('GET gives every in-app event type, on by default; 401; other organization 404', async () => {
      const u = await join('member');
      const res = (await u.user.http.get(prefs(u.user.http)).expect(200)).body;
      expect(res.preferences).toEqual(
        ['mention.created', 'issue.assigned', 'comment.added', 'issue.status_changed', 'attention.resolved', 'verification.completed'].map((event_type) => ({
          channel: 'in_app',
          event_type,
          enabled: true,
        })),
      );
      await t.http().get(prefs(u.user.http)).expect(401);
      await w.other.owner.http.get(prefs(u.user.http)).expect(404);
    });

    it('POST rejects malformed bodies with 400; 401; other organization 404', async () => {
      const u = await join('member');
      const p = prefs(u.user.http);
      for (const body of [
        {},
        { event_type: 'bogus', enabled: false },
        { event_type: 'issue.assigned', enabled: 'no' },
        { channel: 'sms', event_type: 'issue.assigned', enabled: false },
        { preferences: 'x' },
        { preferences: [1] },
        { in_app: { 'mention.created': 'off' } },
        { in_app: [] },
      ]) {
        const res = await u.user.http.post(p).send(body).expect(400);
        expect(res.body.error).toEqual(expect.any(String));
      }
      await u.user.http.post(p).send('[]').set('content-type', 'application/json').expect(400);
      await t.http().post(p).send({ event_type: 'issue.assigned', enabled: false }).expect(401);
      await w.other.owner.http.post(p).send({ event_type: 'issue.assigned', enabled: false }).expect(404);
      expect((await u.user.http.get(p).expect(200)).body.preferences.every((x: any) => x.enabled)).toBe(true);
    });

    it('switching an event type off stops those notifications; the other forms work too', async () => {
      const u = await join('member');
      await grant(w.org, w.proj.id, u.id, 'edit');
      const res = (
        await u.user.http
          .post(prefs(u.user.http))
          .send({ preferences: [{ event_type: 'issue.assigned', enabled: false }] })
          .expect(200)
      ).body;
      expect(res.preferences.find((x: any) => x.event_type === 'issue.assigned').enabled).toBe(false);
      expect(res.acknowledged_mentions).toBe(0);
      const muted = await newIssue(owner(), { assigneeId: u.id });
      await comment(owner(), muted.id, { body: 'for the assignee' });
      await waitFor(u.user.http, (x) => x.issue_id === muted.id && x.event_type === 'comment.added');
      expect((await rowsFor(u.id, muted.id)).map((r) => r.event_type)).toEqual(['comment.added']);
      await u.user.http
        .post(prefs(u.user.http))
        .send({ in_app: { 'issue.assigned': true } })
        .expect(200);
      const back = await newIssue(owner(), { assigneeId: u.id });
      await waitFor(u.user.http, (x) => x.issue_id === back.id && x.event_type === 'issue.assigned');
    });

    it('muting in-app mentions acknowledges unread mentions, and later mentions are skipped as mentions_muted', async () => {
      const u = await join('member');
      const issue = await newIssue(owner());
      const assigned = await newIssue(owner(), { assigneeId: u.id });
      await comment(owner(), issue.id, { body: 'hello', mentions: [{ member_id: u.id }] });
      await waitFor(u.user.http, (x) => x.issue_id === issue.id && x.event_type === 'mention.created');
      await waitFor(u.user.http, (x) => x.issue_id === assigned.id);
      const res = (await u.user.http.post(prefs(u.user.http)).send({ channel: 'in_app', eventType: 'mention.created', enabled: false }).expect(200)).body;
      expect(res.acknowledged_mentions).toBe(1);
      expect((await inbox(u.user.http)).map((x) => x.event_type)).toEqual(['issue.assigned']);
      expect((await rowsFor(u.id, issue.id))[0].acknowledged_at).not.toBeNull();
      const again = await comment(owner(), issue.id, { body: 'hello again', mentions: [{ member_id: u.id }] });
      expect(again.mentions).toEqual({ requested: 1, created: 0, skipped: [{ member_id: u.id, reason: 'mentions_muted' }] });
      expect((await u.user.http.get(prefs(u.user.http)).expect(200)).body.preferences[0]).toEqual({
        channel: 'in_app',
        event_type: 'mention.created',
        enabled: false,
      });
    });
  });
});
