import { EventBus } from '@nestjs/cqrs';
import type { Subscription } from 'rxjs';
import {
  CommentAddedEvent,
  DomainEvents,
  type DomainEvent,
  IssueActivityEvent,
  IssueChangedEvent,
  type TxEventSubscriber,
} from '../../src/common/events/domain-events';
import { startTestApp, type TestApp } from '../support/app';
import { workTrackingWorld, type WorkTrackingWorld } from '../support/issues';

/** The domain-event contract: staged in the writer's transaction, published after commit, dropped on rollback. */
describe('domain events', () => {
  let t: TestApp;
  let w: WorkTrackingWorld;
  let seen: DomainEvent[] = [];
  let sub: Subscription;
  const staged: DomainEvent[] = [];
  let failNextStage = false;
  const txSub: TxEventSubscriber = {
    async onStaged(m, e) {
      if (e instanceof IssueActivityEvent) return; // timeline entries: test/e2e/activity.e2e-spec.ts
      // runs inside the writer's transaction: the change is visible on the same manager
      if (e instanceof IssueChangedEvent && e.kind !== 'deleted') {
        const rows: unknown[] = await m.query('SELECT 1 FROM issues WHERE org_id = $1 AND id = $2', [e.orgId, e.issueId]);
        if (!rows.length) throw new Error('staged outside the transaction');
      }
      if (failNextStage) {
        failNextStage = false;
        throw new Error('subscriber refused');
      }
      staged.push(e);
    },
  };

  beforeAll(async () => {
    t = await startTestApp();
    w = await workTrackingWorld(t);
    t.app.get(DomainEvents).register(txSub);
    sub = t.app.get(EventBus).subscribe((e) => {
      if (e instanceof IssueChangedEvent || e instanceof CommentAddedEvent) seen.push(e);
    });
  });
  afterAll(async () => {
    sub?.unsubscribe();
    await t?.close();
  });
  beforeEach(() => {
    seen = [];
    staged.length = 0;
  });

  const base = () => `/api/orgs/${w.org.id}`;
  const issueEvents = () => seen.filter((e): e is IssueChangedEvent => e instanceof IssueChangedEvent);

  it('create publishes one created event after commit with the new facts', async () => {
    const res = await w.org.owner.http
      .post(`${base()}/issues`)
      .send({ title: 'Evented', projectId: w.proj.id, assigneeIds: [w.editorId], priority: 1 })
      .expect(201);
    const ev = issueEvents();
    expect(ev).toHaveLength(1);
    expect(ev[0]).toMatchObject({ kind: 'created', issueId: res.body.issue.id, before: null, assigneesAdded: [w.editorId] });
    expect(ev[0].after).toMatchObject({ status: 'backlog', priority: 1, projectId: w.proj.id, title: 'Evented' });
    expect(ev[0].actor).toMatchObject({ memberId: w.org.ownerMemberId, type: 'human' });
    expect(staged).toHaveLength(1);
  });

  it('update publishes changed fields, before/after and added assignees; a no-op publishes nothing', async () => {
    const { body } = await w.org.owner.http.post(`${base()}/issues`).send({ title: 'U', projectId: w.proj.id }).expect(201);
    seen = [];
    await w.org.owner.http
      .patch(`${base()}/issues/${body.issue.id}`)
      .send({ status: 'in_progress', assigneeIds: [w.editorId], priority: 0 })
      .expect(200);
    const [ev] = issueEvents();
    expect(ev.kind).toBe('updated');
    expect(ev.changedFields).toEqual(['assignee_id', 'assignee_ids', 'priority', 'status']);
    expect(ev.before).toMatchObject({ status: 'backlog', priority: 2, assigneeIds: [] });
    expect(ev.after).toMatchObject({ status: 'in_progress', priority: 0, assigneeIds: [w.editorId] });
    expect(ev.assigneesAdded).toEqual([w.editorId]);
    expect(ev.statusChanged).toBe(true);
    seen = [];
    await w.org.owner.http.patch(`${base()}/issues/${body.issue.id}`).send({ status: 'in_progress' }).expect(200);
    expect(issueEvents()).toHaveLength(0);
  });

  it('a failed write publishes nothing; a failing in-transaction subscriber rolls the change back', async () => {
    const { body } = await w.org.owner.http.post(`${base()}/issues`).send({ title: 'F', projectId: w.proj.id }).expect(201);
    seen = [];
    await w.org.owner.http.patch(`${base()}/issues/${body.issue.id}`).send({ status: 'nope' }).expect(400);
    expect(issueEvents()).toHaveLength(0);
    failNextStage = true;
    await w.org.owner.http.patch(`${base()}/issues/${body.issue.id}`).send({ title: 'Never stored' }).expect(500);
    expect(issueEvents()).toHaveLength(0);
    const rows: Array<{ title: string }> = await t.db.query('SELECT title FROM issues WHERE org_id = $1 AND id = $2', [w.org.id, body.issue.id]);
    expect(rows[0].title).toBe('F');
  });

  it('bulk create publishes one event per issue, all or nothing', async () => {
    await w.org.owner.http
      .post(`${base()}/issues/bulk`)
      .send({
        issues: [
          { title: 'A', projectId: w.proj.id },
          { title: 'B', projectId: w.proj.id },
        ],
      })
      .expect(201);
    expect(
      issueEvents()
        .map((e) => e.after.title)
        .sort(),
    ).toEqual(['A', 'B']);
    seen = [];
    await w.org.owner.http
      .post(`${base()}/issues/bulk`)
      .send({
        issues: [
          { title: 'C', projectId: w.proj.id },
          { title: '', projectId: w.proj.id },
        ],
      })
      .expect(400);
    expect(issueEvents()).toHaveLength(0);
  });

  it('archive, unarchive and delete publish their kinds', async () => {
    const { body } = await w.org.owner.http.post(`${base()}/issues`).send({ title: 'Arch', projectId: w.proj.id }).expect(201);
    seen = [];
    await w.org.owner.http.post(`${base()}/issues/${body.issue.id}/archive`).expect(200);
    await w.org.owner.http.post(`${base()}/issues/${body.issue.id}/archive`).expect(200); // idempotent: no second event
    await w.org.owner.http.delete(`${base()}/issues/${body.issue.id}/archive`).expect(200);
    await w.org.owner.http.delete(`${base()}/issues/${body.issue.id}`).expect(200);
    expect(issueEvents().map((e) => e.kind)).toEqual(['archived', 'unarchived', 'deleted']);
    expect(issueEvents()[2].after.title).toBe('Arch');
  });

  it('nested transactions: an event staged in a released savepoint survives a later savepoint rollback; a rolled-back one is dropped', async () => {
    const events = t.app.get(DomainEvents);
    const issueId = (await w.org.owner.http.post(`${base()}/issues`).send({ title: 'SP', projectId: w.proj.id }).expect(201)).body.issue.id;
    seen = [];
    const facts = { status: 'backlog', priority: 2, projectId: w.proj.id, assigneeIds: [], title: 'SP', number: 1, createdByMemberId: null, archived: false };
    const ev = (title: string) =>
      new IssueChangedEvent(w.org.id, issueId, 'updated', { memberId: null, type: 'automation', displayName: 'Automation' }, facts, { ...facts, title }, [
        'title',
      ]);
    const kept = ev('kept');
    const dropped = ev('dropped');
    const outer = ev('outer');
    await t.db.transaction(async (m) => {
      await m.transaction(async (inner) => events.stage(inner, kept)); // savepoint released
      await m
        .transaction(async (inner) => {
          await events.stage(inner, dropped);
          throw new Error('roll back to the savepoint');
        })
        .catch(() => undefined);
      await events.stage(m, outer);
    });
    expect(issueEvents().map((e) => e.after.title)).toEqual(['kept', 'outer']);
  });

  it('comments publish CommentAddedEvent with created mentions and the replied-to author', async () => {
    const { body } = await w.org.owner.http.post(`${base()}/issues`).send({ title: 'C', projectId: w.proj.id }).expect(201);
    const first = await w.editor.http
      .post(`${base()}/issues/${body.issue.id}/comments`)
      .send({ body: 'hi', mentions: [{ member_id: w.org.ownerMemberId }, { member_id: w.editorId }] })
      .expect(201);
    seen = [];
    await w.org.owner.http.patch(`${base()}/issues/${body.issue.id}`).send({ title: 'C2', comment_body: 'via update' }).expect(200);
    await w.org.owner.http.post(`${base()}/issues/${body.issue.id}/comments`).send({ body: 'reply', reply_to_comment_id: first.body.comment.id }).expect(201);
    const comments = seen.filter((e): e is CommentAddedEvent => e instanceof CommentAddedEvent);
    expect(comments).toHaveLength(2);
    expect(comments[1]).toMatchObject({ replyToCommentId: first.body.comment.id, replyToAuthorMemberId: w.editorId, mentionedMemberIds: [] });
    expect(issueEvents()).toHaveLength(1);
    seen = [];
    await w.org.owner.http
      .post(`${base()}/issues/${body.issue.id}/comments`)
      .send({ body: 'ping', mentions: [{ member_id: w.editorId }, { member_id: w.org.ownerMemberId }] })
      .expect(201);
    const [ping] = seen.filter((e): e is CommentAddedEvent => e instanceof CommentAddedEvent);
    expect(ping.mentionedMemberIds).toEqual([w.editorId]); // self mention skipped
  });
});
