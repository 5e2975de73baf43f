import { randomUUID } from 'node:crypto';
import { Test } from '@nestjs/testing';
import { IssueChangedEvent } from '../../src/common/events/domain-events';
import { AutomationRunner } from '../../src/modules/automation/automation-runner.service';
import { AutomationRuleEntity } from '../../src/modules/automation/entities/automation-rule.entity';
import { RecurrenceSweepProcessor } from '../../src/modules/recurrence/recurrence-sweep.processor';
import { WorkerModule } from '../../src/worker.module';
import { startTestApp, type TestApp } from '../support/app';
import { addMember, newUser, type TestOrg, type TestUser, uniq } from '../support/factories';
import { activityRows, eventually, workTrackingWorld } from '../support/issues';

/**
 * Automation rules: CRUD (owner/admin writes, non-guest reads), validation (400, nothing stored),
 * every trigger and action running after commit as the automation actor, conditions, the loop
 * guard, dry runs and run history.
 */
describe('automation rules', () => {
  let t: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  let member: TestUser;
  let editor: TestUser;
  let editorId: string;
  let guest: TestUser;
  let guestId: string;
  let admin: TestUser;
  let proj: { id: string };
  let hidden: { id: string };
  const rules = (o: TestOrg = org) => `/api/orgs/${o.id}/automation-rules`;
  const ruleCount = async () => Number((await t.db.query('SELECT count(*)::int AS n FROM automation_rules WHERE org_id = $1', [org.id]))[0].n);
  const runCount = async (ruleId: string) =>
    Number((await t.db.query('SELECT count(*)::int AS n FROM automation_rule_runs WHERE org_id = $1 AND rule_id = $2', [org.id, ruleId]))[0].n);
  const runs = async (ruleId: string) => (await org.owner.http.get(`${rules()}/${ruleId}/activity`).expect(200)).body.runs as any[];
  const waitRuns = (ruleId: string, n: number) => eventually(async () => (await runCount(ruleId)) >= n);
  const create = async (body: Record<string, unknown>, o: TestOrg = org) =>
    (
      await o.owner.http
        .post(rules(o))
        .send({ name: uniq('rule'), trigger_event: 'issue.created', actions: [{ type: 'set_priority', value: 0 }], ...body })
        .expect(201)
    ).body.rule;
  const newIssue = async (body: Record<string, unknown> = {}) =>
    (
      await org.owner.http
        .post(`/api/orgs/${org.id}/issues`)
        .send({ projectId: proj.id, title: uniq('issue'), ...body })
        .expect(201)
    ).body.issue;
  const getIssue = async (id: string) => (await org.owner.http.get(`/api/orgs/${org.id}/issues/${id}`).expect(200)).body.issue;
  const patchIssue = (id: string, body: Record<string, unknown>) => org.owner.http.patch(`/api/orgs/${org.id}/issues/${id}`).send(body).expect(200);
  const comments = async (id: string) => (await org.owner.http.get(`/api/orgs/${org.id}/issues/${id}/comments`).expect(200)).body.comments as any[];
  /** Rules are org-wide state: each test disables what it created so others are not affected. */
  const disable = (ids: string[]) => Promise.all(ids.map((id) => org.owner.http.put(`${rules()}/${id}`).send({ enabled: false }).expect(200)));

  beforeAll(async () => {
    t = await startTestApp();
    ({ org, other, member, editor, editorId, guest, guestId, proj, hidden } = await workTrackingWorld(t));
    admin = await newUser(t, 'admin');
    await addMember(t, org, admin, 'admin');
  });
  afterAll(() => t.close());

  describe('routes', () => {
    it('creates (201), lists, reads, updates (PUT keeps omitted fields) and deletes a rule', async () => {
      const body = {
        name: 'Assign urgent',
        trigger_event: 'issue.created',
        conditions: [{ field: 'priority', operator: 'eq', value: 3 }],
        actions: [{ type: 'set_assignee', value: editorId }],
        enabled: false,
        project_id: proj.id,
      };
      const r = await admin.http.post(rules()).send(body).expect(201);
      const rule = r.body.rule;
      expect(rule).toMatchObject({ name: 'Assign urgent', trigger_event: 'issue.created', enabled: false, project_id: proj.id, org_id: org.id });
      expect(rule.conditions).toEqual([{ field: 'priority', operator: 'eq', value: 3 }]);
      expect(rule.actions).toEqual([{ type: 'set_assignee', value: editorId }]);

      const list = await member.http.get(rules()).expect(200);
      expect(list.body.rules.map((x: any) => x.id)).toContain(rule.id);
      expect(list.body).toMatchObject({ limit: 25, offset: 0 });
      const env = await member.http.get(`${rules()}?shape=envelope&project_id=${proj.id}`).expect(200);
      expect(env.body).toMatchObject({ resource: 'rules' });
      expect(env.body.items.every((x: any) => x.project_id === proj.id)).toBe(true);
      await member.http.get(`${rules()}?limit=-1`).expect(400);
      await member.http.get(`${rules()}?project_id=nope`).expect(400);

      expect((await member.http.get(`${rules()}/${rule.id}`).expect(200)).body.rule).toEqual(rule);

      const upd = await org.owner.http.put(`${rules()}/${rule.id}`).send({ name: 'Renamed', enabled: true, triggerEvent: 'issue.updated' }).expect(200);
      expect(upd.body.rule).toMatchObject({
        name: 'Renamed',
        enabled: true,
        trigger_event: 'issue.updated',
        project_id: proj.id,
        conditions: body.conditions,
        actions: body.actions,
      });
      const cleared = await org.owner.http.put(`${rules()}/${rule.id}`).send({ conditions: null, project_id: null, enabled: false }).expect(200);
      expect(cleared.body.rule).toMatchObject({ conditions: [], project_id: null, enabled: false });
      expect((await org.owner.http.get(`${rules()}/${rule.id}`).expect(200)).body.rule.name).toBe('Renamed');

      await admin.http.delete(`${rules()}/${rule.id}`).expect(200, { success: true });
      await org.owner.http.get(`${rules()}/${rule.id}`).expect(404);
      await org.owner.http.delete(`${rules()}/${rule.id}`).expect(404);
    });

    it('401 without credentials on every route', async () => {
      const id = randomUUID();
      const anon = t.http();
      await anon.get(rules()).expect(401);
      await anon.post(rules()).send({}).expect(401);
      await anon.get(`${rules()}/${id}`).expect(401);
      await anon.put(`${rules()}/${id}`).send({}).expect(401);
      await anon.delete(`${rules()}/${id}`).expect(401);
      await anon.get(`${rules()}/${id}/activity`).expect(401);
      await anon.post(`${rules()}/${id}/test`).send({}).expect(401);
    });

    it('403: members cannot write, see history or dry-run; guests cannot read; nothing changes', async () => {
      const rule = await create({ enabled: false });
      const before = await ruleCount();
      await member.http
        .post(rules())
        .send({ name: 'x', trigger_event: 'issue.created', actions: [{ type: 'close_issue' }] })
        .expect(403);
      await editor.http.put(`${rules()}/${rule.id}`).send({ name: 'hijack' }).expect(403);
      await editor.http.delete(`${rules()}/${rule.id}`).expect(403);
      await member.http.get(`${rules()}/${rule.id}/activity`).expect(403);
      await member.http.post(`${rules()}/${rule.id}/test`).send({ issue: {} }).expect(403);
      // the role check comes first: a 403 never reveals whether the rule exists
      await member.http.put(`${rules()}/${randomUUID()}`).send({ name: 'x' }).expect(403);
      await guest.http.get(rules()).expect(403);
      await guest.http.get(`${rules()}/${rule.id}`).expect(403);
      await guest.http.post(rules()).send({}).expect(403);
      expect(await ruleCount()).toBe(before);
      expect((await org.owner.http.get(`${rules()}/${rule.id}`).expect(200)).body.rule.name).toBe(rule.name);
    });

    it('404 concealment: other organizations, their rules, projects and issues; unknown and non-UUID ids', async () => {
      const foreign = await create({ enabled: false }, other);
      await member.http.get(rules(other)).expect(404);
      await member.http.post(rules(other)).send({}).expect(404);
      await org.owner.http.get(`${rules(other)}/${foreign.id}`).expect(404);
      await org.owner.http.get(`${rules()}/${foreign.id}`).expect(404);
      await org.owner.http.put(`${rules()}/${foreign.id}`).send({ name: 'x' }).expect(404);
      await org.owner.http.delete(`${rules()}/${foreign.id}`).expect(404);
      await org.owner.http.get(`${rules()}/${foreign.id}/activity`).expect(404);
      await org.owner.http.post(`${rules()}/${foreign.id}/test`).send({ issue: {} }).expect(404);
      await org.owner.http.get(`${rules()}/not-a-uuid`).expect(404);
      expect((await other.owner.http.get(`${rules(other)}/${foreign.id}`).expect(200)).body.rule.id).toBe(foreign.id);

      const otherProj = (
        await other.owner.http
          .post(`/api/orgs/${other.id}/projects`)
          .send({ name: uniq('P'), key: 'ZQX' })
          .expect(201)
      ).body.project;
      const before = await ruleCount();
      await org.owner.http
        .post(rules())
        .send({ name: 'x', trigger_event: 'issue.created', project_id: otherProj.id, actions: [{ type: 'close_issue' }] })
        .expect(404);
      expect(await ruleCount()).toBe(before);
      const mine = await create({ enabled: false });
      const otherIssue = (await other.owner.http.post(`/api/orgs/${other.id}/issues`).send({ projectId: otherProj.id, title: 'x' }).expect(201)).body.issue;
      await org.owner.http.post(`${rules()}/${mine.id}/test`).send({ issue_id: otherIssue.id }).expect(404);
      await org.owner.http.post(`${rules()}/${mine.id}/test`).send({ issue_id: randomUUID() }).expect(404);
    });

    it('400 for malformed rules; nothing stored', async () => {
      const ok = { name: 'n', trigger_event: 'issue.created', actions: [{ type: 'close_issue' }] };
      const label = (
        await org.owner.http
          .post(`/api/orgs/${org.id}/labels`)
          .send({ name: uniq('l') })
          .expect(201)
      ).body.label;
      const foreignLabel = (
        await other.owner.http
          .post(`/api/orgs/${other.id}/labels`)
          .send({ name: uniq('l') })
          .expect(201)
      ).body.label;
      const bad: Array<Record<string, unknown>> = [
        { ...ok, name: undefined },
        { ...ok, name: '   ' },
        { ...ok, name: 'x'.repeat(201) },
        { ...ok, trigger_event: undefined },
        { ...ok, trigger_event: 'issue.deleted' },
        { ...ok, trigger_event: 42 },
        { ...ok, actions: undefined },
        { ...ok, actions: [] },
        { ...ok, actions: 'close_issue' },
        { ...ok, actions: [{ type: 'delete_issue' }] },
        { ...ok, actions: [{ value: 1 }] },
        { ...ok, actions: [{ type: 'set_priority', value: 4 }] },
        { ...ok, actions: [{ type: 'set_priority', value: '1' }] },
        { ...ok, actions: [{ type: 'set_status', value: '' }] },
        { ...ok, actions: [{ type: 'set_status', value: 'Not A Key' }] },
        { ...ok, project_id: proj.id, actions: [{ type: 'set_status', value: 'nonexistent_column' }] },
        { ...ok, actions: [{ type: 'set_assignee' }] },
        { ...ok, actions: [{ type: 'set_assignee', value: 'bob' }] },
        { ...ok, actions: [{ type: 'set_assignee', value: randomUUID() }] },
        { ...ok, actions: [{ type: 'add_label', value: 'x' }] },
        { ...ok, actions: [{ type: 'add_label', value: foreignLabel.id }] },
        { ...ok, actions: [{ type: 'post_comment', value: '' }] },
        { ...ok, actions: [{ type: 'post_comment', value: '   ' }] },
        { ...ok, actions: [{ type: 'post_comment', value: 7 }] },
        { ...ok, actions: [{ type: 'close_issue', value: 'now' }] },
        { ...ok, actions: [{ type: 'send_webhook' }] },
        { ...ok, actions: [{ type: 'send_webhook', webhook_id: randomUUID() }] },
        { ...ok, actions: [{ type: 'add_label', value: label.id }, { type: 'nope' }] },
        { ...ok, actions: Array.from({ length: 21 }, () => ({ type: 'close_issue' })) },
        { ...ok, conditions: 'priority = 3' },
        { ...ok, conditions: [{ field: 'description', operator: 'eq', value: 'x' }] },
        { ...ok, conditions: [{ field: 'priority', operator: 'gt', value: 1 }] },
        { ...ok, conditions: [{ field: 'priority', operator: 'eq' }] },
        { ...ok, conditions: [{ field: 'priority', operator: 'eq', value: 9 }] },
        { ...ok, conditions: [{ field: 'priority', operator: 'in', value: 1 }] },
        { ...ok, conditions: [{ field: 'priority', operator: 'in', value: [] }] },
        { ...ok, conditions: [{ field: 'status', operator: 'eq', value: 3 }] },
        { ...ok, conditions: [{ field: 'assignee_id', operator: 'eq', value: 'me' }] },
        { ...ok, conditions: [{ field: 'status', operator: 'contains', value: 'to' }] },
        { ...ok, conditions: [null] },
        { ...ok, enabled: 'yes' },
        { ...ok, project_id: 'p1' },
        // NUL cannot be stored in jsonb: a 400, never a 500
        { ...ok, conditions: [{ field: 'title', operator: 'eq', value: 'a\u0000b' }] },
        { ...ok, actions: [{ type: 'post_comment', value: 'a\u0000b' }] },
      ];
      const before = await ruleCount();
      for (const b of bad) {
        const r = await org.owner.http.post(rules()).send(b);
        expect({ body: b, status: r.status }).toEqual({ body: b, status: 400 });
        expect(r.body.error).toEqual(expect.any(String));
      }
      await org.owner.http.post(rules()).set('content-type', 'application/json').send('[1]').expect(400);
      expect(await ruleCount()).toBe(before);

      // a project rule cannot name an assignee who cannot read that project (the run could never succeed)
      await org.owner.http
        .post(rules())
        .send({ ...ok, project_id: hidden.id, actions: [{ type: 'set_assignee', value: guestId }] })
        .expect(400);
      expect(await ruleCount()).toBe(before);
      const guestRule = await create({ enabled: false, project_id: proj.id, actions: [{ type: 'set_assignee', value: guestId }] });
      await org.owner.http.put(`${rules()}/${guestRule.id}`).send({ project_id: hidden.id }).expect(400);

      const rule = await create({ name: 'keep', enabled: false });
      await org.owner.http
        .put(`${rules()}/${rule.id}`)
        .send({ actions: [{ type: 'set_priority', value: 9 }] })
        .expect(400);
      await org.owner.http.put(`${rules()}/${rule.id}`).send({ name: '' }).expect(400);
      await org.owner.http
        .put(`${rules()}/${rule.id}`)
        .send({ project_id: proj.id, actions: [{ type: 'set_status', value: 'nope_col' }] })
        .expect(400);
      expect((await org.owner.http.get(`${rules()}/${rule.id}`).expect(200)).body.rule).toEqual(rule);
    });
  });

  describe('triggers, conditions and actions', () => {
    it('issue.created + eq condition sets the assignee as Automation (activity actor null)', async () => {
      const rule = await create({
        project_id: proj.id,
        conditions: [{ field: 'priority', operator: 'eq', value: 3 }],
        actions: [{ type: 'set_assignee', value: editorId }],
      });
      const hit = await newIssue({ priority: 3 });
      const miss = await newIssue({ priority: 1 });
      expect(await eventually(async () => (await getIssue(hit.id)).assignee_ids?.includes(editorId))).toBe(true);
      expect(await waitRuns(rule.id, 1)).toBe(true);
      const r = await runs(rule.id);
      expect(r).toHaveLength(1); // the non-matching issue left no history
      expect(r[0]).toEqual({
        id: expect.any(String),
        status: 'success',
        trigger_event: 'issue.created',
        issue_id: hit.id,
        actions: ['set_assignee'],
        error_code: null,
        started_at: expect.any(String),
        finished_at: expect.any(String),
      });
      expect((await getIssue(miss.id)).assignee_ids ?? []).toEqual([]);
      expect(await eventually(async () => (await activityRows(t, org.id, hit.id, 'assignee.added')).length === 1)).toBe(true);
      const [row] = await t.db.query(`SELECT actor_member_id, metadata FROM activity_events WHERE org_id = $1 AND issue_id = $2 AND action = 'issue.updated'`, [
        org.id,
        hit.id,
      ]);
      expect(row.actor_member_id).toBeNull();
      expect(row.metadata.actor).toMatchObject({ display_name: 'Automation', type: 'automation' });
      await disable([rule.id]);
    });

    it('issue.status_changed with in/neq conditions sets priority; issue.priority_changed adds a label', async () => {
      const label = (
        await org.owner.http
          .post(`/api/orgs/${org.id}/labels`)
          .send({ name: uniq('auto') })
          .expect(201)
      ).body.label;
      const a = await create({
        project_id: proj.id,
        trigger_event: 'issue.status_changed',
        conditions: [
          { field: 'status', operator: 'in', value: ['in_progress', 'todo'] },
          { field: 'title', operator: 'neq', value: 'skip me' },
        ],
        actions: [{ type: 'set_priority', value: 0 }],
      });
      const b = await create({
        trigger_event: 'issue.priority_changed',
        conditions: [{ field: 'priority', operator: 'eq', value: 1 }],
        actions: [{ type: 'add_label', value: label.id }],
      });
      const issue = await newIssue({ priority: 3 });
      await patchIssue(issue.id, { status: 'in_progress' });
      expect(await eventually(async () => (await getIssue(issue.id)).priority === 0)).toBe(true);
      const skipped = await newIssue({ title: 'skip me' });
      await patchIssue(skipped.id, { status: 'todo' });
      await patchIssue(issue.id, { priority: 1 });
      expect(await eventually(async () => ((await getIssue(issue.id)).label_ids ?? []).includes(label.id))).toBe(true);
      expect(await waitRuns(b.id, 1)).toBe(true);
      expect((await runs(b.id))[0]).toMatchObject({ status: 'success', trigger_event: 'issue.priority_changed', actions: ['add_label'] });
      expect(await eventually(async () => (await activityRows(t, org.id, issue.id, 'label.added')).length === 1)).toBe(true);
      expect((await runs(a.id)).map((r) => r.issue_id)).toEqual([issue.id]);
      await disable([a.id, b.id]);
    });

    it('issue.assigned posts an automation-authored comment (author_type automation, activity by Automation)', async () => {
      const rule = await create({
        trigger_event: 'issue.assigned',
        conditions: [{ field: 'assignee_id', operator: 'eq', value: editorId }],
        actions: [{ type: 'post_comment', value: 'Welcome **aboard**' }],
      });
      const issue = await newIssue();
      await patchIssue(issue.id, { assigneeIds: [editorId] });
      expect(await eventually(async () => (await comments(issue.id)).length === 1)).toBe(true);
      const [c] = await comments(issue.id);
      expect(c).toMatchObject({ author_type: 'automation', author_id: null, author: null, source_metadata: null });
      expect(c.body).toContain('<strong>aboard</strong>');
      expect(await eventually(async () => (await activityRows(t, org.id, issue.id, 'comment.created')).length === 1)).toBe(true);
      const [row] = await t.db.query(
        `SELECT actor_member_id, metadata FROM activity_events WHERE org_id = $1 AND issue_id = $2 AND action = 'comment.created'`,
        [org.id, issue.id],
      );
      expect(row.actor_member_id).toBeNull();
      expect(row.metadata.actor).toEqual(expect.objectContaining({ display_name: 'Automation', type: 'automation' }));
      const act = await org.owner.http.get(`/api/orgs/${org.id}/issues/${issue.id}/activity`).expect(200);
      const ev = act.body.data.find((x: any) => x.action === 'comment.created');
      expect(ev.actor).toBeNull();
      expect(ev.actor_id ?? null).toBeNull();
      await disable([rule.id]);
    });

    it('issue.updated with title contains / not_in closes the issue and sets a status; project-bound rules ignore other projects', async () => {
      const close = await create({
        trigger_event: 'issue.updated',
        project_id: proj.id,
        conditions: [
          { field: 'title', operator: 'contains', value: 'SHIP' },
          { field: 'priority', operator: 'not_in', value: [0] },
        ],
        actions: [{ type: 'close_issue' }],
      });
      const status = await create({ trigger_event: 'issue.updated', project_id: hidden.id, actions: [{ type: 'set_status', value: 'todo' }] });
      const issue = await newIssue({ priority: 2 });
      await patchIssue(issue.id, { title: 'please ship it' });
      expect(await eventually(async () => (await getIssue(issue.id)).status === 'done')).toBe(true);
      const inHidden = (await org.owner.http.post(`/api/orgs/${org.id}/issues`).send({ projectId: hidden.id, title: 'h' }).expect(201)).body.issue;
      await patchIssue(inHidden.id, { title: 'changed' });
      expect(await eventually(async () => (await getIssue(inHidden.id)).status === 'todo')).toBe(true);
      expect((await runs(close.id)).map((r) => r.issue_id)).toEqual([issue.id]);
      expect((await runs(status.id)).map((r) => r.issue_id)).toEqual([inHidden.id]);
      await disable([close.id, status.id]);
    });

    it('a failing action is recorded as failed with a code (status not in the issue project) and changes nothing', async () => {
      const rule = await create({
        trigger_event: 'issue.created',
        actions: [{ type: 'set_status', value: 'no_such_status' }],
        conditions: [{ field: 'title', operator: 'eq', value: 'fail-me' }],
      });
      const issue = await newIssue({ title: 'fail-me' });
      expect(await waitRuns(rule.id, 1)).toBe(true);
      expect((await runs(rule.id))[0]).toMatchObject({ status: 'failed', error_code: 'validation_failed', actions: [], issue_id: issue.id });
      expect((await getIssue(issue.id)).status).toBe('backlog');
      await disable([rule.id]);
    });

    it('send_webhook writes one automation.action delivery (schema 3) with the v3 body and no description', async () => {
      const hook = await insertWebhook(t, org.id, 'automation');
      const plain = await insertWebhook(t, org.id, 'webhook');
      await org.owner.http
        .post(rules())
        .send({ name: 'x', trigger_event: 'issue.created', actions: [{ type: 'send_webhook', webhook_id: plain }] })
        .expect(400);
      const foreignHook = await insertWebhook(t, other.id, 'both');
      await org.owner.http
        .post(rules())
        .send({ name: 'x', trigger_event: 'issue.created', actions: [{ type: 'send_webhook', webhook_id: foreignHook }] })
        .expect(400);
      const rule = await create({
        name: 'hook it',
        project_id: proj.id,
        trigger_event: 'issue.status_changed',
        actions: [{ type: 'send_webhook', webhookId: hook }],
      });
      expect(rule.actions).toEqual([{ type: 'send_webhook', webhook_id: hook }]);
      const issue = await newIssue({ description: 'SECRET-DESCRIPTION', priority: 1 });
      await patchIssue(issue.id, { status: 'todo', title: 'retitled', comment_body: 'SECRET-COMMENT' });
      expect(await waitRuns(rule.id, 1)).toBe(true);
      expect((await runs(rule.id))[0]).toMatchObject({ status: 'success', actions: ['send_webhook'] });
      const rows = await t.db.query(
        'SELECT event, schema_version, body, automation_rule_id, issue_id FROM webhook_deliveries WHERE org_id = $1 AND webhook_id = $2',
        [org.id, hook],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ event: 'automation.action', schema_version: 3, automation_rule_id: rule.id });
      const body = JSON.parse(rows[0].body);
      expect(body).toMatchObject({
        event: 'automation.action',
        schema_version: 3,
        rule: { id: rule.id, name: 'hook it' },
        trigger: { event: 'issue.status_changed', changedFields: ['status', 'title'] },
        project: { id: proj.id },
        issue: { id: issue.id, title: 'retitled', status: 'todo', priority: 1, project_id: proj.id },
      });
      expect(body.artifacts).toBe(0); // direct artifact links of the issue (none here)
      expect(body).not.toHaveProperty('delivery_id');
      expect(rows[0].body).not.toContain('SECRET');
      // a destination disabled after the rule was written: the run fails, nothing is delivered
      await t.db.query('UPDATE webhooks SET enabled = false WHERE org_id = $1 AND id = $2', [org.id, hook]);
      const second = await newIssue();
      await patchIssue(second.id, { status: 'todo' });
      expect(await waitRuns(rule.id, 2)).toBe(true);
      expect((await runs(rule.id))[0]).toMatchObject({ status: 'failed', error_code: 'webhook_unavailable', actions: [], issue_id: second.id });
      await disable([rule.id]);
    });

    it('projectless issues: org-wide rules run and the v3 body has project null', async () => {
      const hook = await insertWebhook(t, org.id, 'both');
      const rule = await create({
        trigger_event: 'issue.created',
        conditions: [{ field: 'project_id', operator: 'eq', value: null }],
        actions: [
          { type: 'set_priority', value: 1 },
          { type: 'send_webhook', webhook_id: hook },
        ],
      });
      const issue = (await org.owner.http.post(`/api/orgs/${org.id}/issues`).send({ title: 'loose', priority: 3 }).expect(201)).body.issue;
      expect(await waitRuns(rule.id, 1)).toBe(true);
      expect((await runs(rule.id))[0]).toMatchObject({ status: 'success', actions: ['set_priority', 'send_webhook'] });
      const [row] = await t.db.query('SELECT body FROM webhook_deliveries WHERE org_id = $1 AND webhook_id = $2', [org.id, hook]);
      const body = JSON.parse(row.body);
      expect(body.project).toBeNull();
      expect(body.issue).toMatchObject({ id: issue.id, project_id: null, priority: 1, identifier: null });
      expect(body.trigger).toEqual({ event: 'issue.created', changedFields: [] });
      await disable([rule.id]);
    });
  });

  describe('loop prevention', () => {
    it('two rules that would ping-pong run once each; the automation change is recorded as skipped', async () => {
      const a = await create({
        project_id: proj.id,
        trigger_event: 'issue.status_changed',
        conditions: [{ field: 'status', operator: 'eq', value: 'in_progress' }],
        actions: [{ type: 'set_status', value: 'todo' }],
      });
      const b = await create({
        project_id: proj.id,
        trigger_event: 'issue.status_changed',
        conditions: [{ field: 'status', operator: 'eq', value: 'todo' }],
        actions: [{ type: 'set_status', value: 'in_progress' }],
      });
      const issue = await newIssue();
      await patchIssue(issue.id, { status: 'in_progress' });
      expect(await waitRuns(a.id, 1)).toBe(true);
      expect(await waitRuns(b.id, 1)).toBe(true);
      // A's change (depth 1) matched B: skipped, so it made no change, so nothing else can follow
      expect((await runs(a.id)).map((r) => [r.status, r.error_code])).toEqual([['success', null]]);
      expect((await runs(b.id)).map((r) => [r.status, r.error_code, r.actions])).toEqual([['skipped', 'automation_depth_limit', []]]);
      expect((await getIssue(issue.id)).status).toBe('todo');
      const depths = await t.db.query(
        'SELECT automation_depth FROM automation_rule_runs WHERE org_id = $1 AND rule_id = ANY($2::uuid[]) ORDER BY automation_depth',
        [org.id, [a.id, b.id]],
      );
      expect(depths.map((d: any) => d.automation_depth)).toEqual([0, 1]);
      await disable([a.id, b.id]);
    });
  });

  describe('races between a rule change and its run', () => {
    /** A change event as the trigger handler saw it, for an issue whose state has moved on since. */
    const staleEvent = (issueId: string, projectId: string) => {
      const facts = { status: 'backlog', priority: 2, projectId, assigneeIds: [], title: 't', number: 1, createdByMemberId: null, archived: false };
      return new IssueChangedEvent(org.id, issueId, 'created', { memberId: null, type: 'human', displayName: 'x' }, null, facts);
    };
    const entity = (id: string) => t.db.getRepository(AutomationRuleEntity).findOneByOrFail({ orgId: org.id, id });
    const never = [{ field: 'title', operator: 'eq', value: 'never-matches-anything' }];

    it('a rule deleted after it was matched does not act and does not fail', async () => {
      const rule = await create({
        project_id: proj.id,
        conditions: never,
        actions: [
          { type: 'set_priority', value: 0 },
          { type: 'post_comment', value: 'late' },
        ],
      });
      const loaded = await entity(rule.id);
      const issue = await newIssue({ priority: 3 });
      await org.owner.http.delete(`${rules()}/${rule.id}`).expect(200);
      await t.app.get(AutomationRunner).run(loaded, 'issue.created', staleEvent(issue.id, proj.id));
      expect((await getIssue(issue.id)).priority).toBe(3);
      expect(await comments(issue.id)).toEqual([]);
    });

    it('a rule disabled after it was matched does not act', async () => {
      const rule = await create({ project_id: proj.id, conditions: never, actions: [{ type: 'set_priority', value: 0 }] });
      const loaded = await entity(rule.id);
      const issue = await newIssue({ priority: 3 });
      await disable([rule.id]);
      await t.app.get(AutomationRunner).run(loaded, 'issue.created', staleEvent(issue.id, proj.id));
      expect((await getIssue(issue.id)).priority).toBe(3);
      expect(await runCount(rule.id)).toBe(0);
    });

    it('a project rule does not act on an issue that moved to another project before the run', async () => {
      const rule = await create({
        project_id: proj.id,
        conditions: never,
        actions: [
          { type: 'set_priority', value: 0 },
          { type: 'post_comment', value: 'wrong project' },
        ],
      });
      const loaded = await entity(rule.id);
      const issue = (await org.owner.http.post(`/api/orgs/${org.id}/issues`).send({ projectId: hidden.id, title: 'moved', priority: 3 }).expect(201)).body
        .issue;
      // the event says `proj` (as when it was matched); the issue is now in `hidden`
      await t.app.get(AutomationRunner).run(loaded, 'issue.created', staleEvent(issue.id, proj.id));
      expect((await getIssue(issue.id)).priority).toBe(3);
      expect(await comments(issue.id)).toEqual([]);
      expect((await runs(rule.id)).map((r) => [r.status, r.error_code])).toEqual([['skipped', 'issue_out_of_scope']]);
      await disable([rule.id]);
    });
  });

  describe('actions whose references went away', () => {
    it('a deleted label, a removed assignee and a disabled webhook fail the run with a code, never a crash', async () => {
      const label = (
        await org.owner.http
          .post(`/api/orgs/${org.id}/labels`)
          .send({ name: uniq('gone') })
          .expect(201)
      ).body.label;
      const leaving = await newUser(t, 'leaving');
      const leavingId = await addMember(t, org, leaving, 'member');
      const hook = await insertWebhook(t, org.id, 'automation');
      const l = await create({
        project_id: proj.id,
        conditions: [{ field: 'title', operator: 'eq', value: 'refs-gone' }],
        actions: [{ type: 'add_label', value: label.id }],
      });
      const a = await create({
        project_id: proj.id,
        conditions: [{ field: 'title', operator: 'eq', value: 'refs-gone' }],
        actions: [{ type: 'set_assignee', value: leavingId }],
      });
      const h = await create({
        project_id: proj.id,
        conditions: [{ field: 'title', operator: 'eq', value: 'refs-gone' }],
        actions: [{ type: 'send_webhook', webhook_id: hook }],
      });
      await org.owner.http.delete(`/api/orgs/${org.id}/labels/${label.id}`).expect(200);
      await org.owner.http.delete(`/api/orgs/${org.id}/members/${leavingId}`).expect((r) => expect([200, 204]).toContain(r.status));
      await t.db.query('UPDATE webhooks SET enabled = false WHERE org_id = $1 AND id = $2', [org.id, hook]);
      const issue = await newIssue({ title: 'refs-gone' });
      for (const r of [l, a, h]) expect(await waitRuns(r.id, 1)).toBe(true);
      expect((await runs(l.id))[0]).toMatchObject({ status: 'failed', error_code: 'label_not_found' });
      expect((await runs(a.id))[0]).toMatchObject({ status: 'failed', error_code: 'validation_failed' });
      expect((await runs(h.id))[0]).toMatchObject({ status: 'failed', error_code: 'webhook_unavailable' });
      expect((await getIssue(issue.id)).assignee_ids ?? []).toEqual([]);
      await disable([l.id, a.id, h.id]);
    });
  });

  describe('dry run', () => {
    it('issue_id: returns matched and the actions, changes nothing and records no run', async () => {
      const rule = await create({
        enabled: false,
        project_id: proj.id,
        conditions: [{ field: 'priority', operator: 'eq', value: 2 }],
        actions: [
          { type: 'set_assignee', value: editorId },
          { type: 'post_comment', value: 'hi' },
        ],
      });
      const issue = await newIssue({ priority: 2 });
      const before = await getIssue(issue.id);
      const r = await admin.http.post(`${rules()}/${rule.id}/test`).send({ issue_id: issue.id }).expect(200);
      expect(r.body).toEqual({
        matched: true,
        actions_that_would_run: [
          { type: 'set_assignee', value: editorId },
          { type: 'post_comment', value: 'hi' },
        ],
      });
      const miss = await newIssue({ priority: 1 });
      expect((await org.owner.http.post(`${rules()}/${rule.id}/test`).send({ issueId: miss.id }).expect(200)).body).toEqual({
        matched: false,
        actions_that_would_run: [],
      });
      const elsewhere = (await org.owner.http.post(`/api/orgs/${org.id}/issues`).send({ projectId: hidden.id, title: 'h', priority: 2 }).expect(201)).body
        .issue;
      expect((await org.owner.http.post(`${rules()}/${rule.id}/test`).send({ issue_id: elsewhere.id }).expect(200)).body.matched).toBe(false);
      expect(await getIssue(issue.id)).toEqual(before);
      expect(await comments(issue.id)).toEqual([]);
      expect(await runCount(rule.id)).toBe(0);
      expect(await runs(rule.id)).toEqual([]);
    });

    it('issue object: evaluates the given fields, creates nothing; 400 for neither/both/malformed', async () => {
      const rule = await create({
        enabled: false,
        project_id: proj.id,
        conditions: [
          { field: 'status', operator: 'eq', value: 'todo' },
          { field: 'assignee_id', operator: 'eq', value: null },
        ],
      });
      const count = async () => Number((await t.db.query('SELECT count(*)::int AS n FROM issues WHERE org_id = $1', [org.id]))[0].n);
      const n = await count();
      const url = `${rules()}/${rule.id}/test`;
      expect(
        (
          await org.owner.http
            .post(url)
            .send({ issue: { title: 'hypo', status: 'todo', priority: 2 } })
            .expect(200)
        ).body,
      ).toEqual({
        matched: true,
        actions_that_would_run: [{ type: 'set_priority', value: 0 }],
      });
      expect(
        (
          await org.owner.http
            .post(url)
            .send({ issue: { status: 'todo', assignee_id: editorId } })
            .expect(200)
        ).body.matched,
      ).toBe(false);
      expect(
        (
          await org.owner.http
            .post(url)
            .send({ issue: { status: 'todo', project_id: hidden.id } })
            .expect(200)
        ).body.matched,
      ).toBe(false);
      await org.owner.http.post(url).send({}).expect(400);
      await org.owner.http.post(url).send({ issue_id: randomUUID(), issue: {} }).expect(400);
      await org.owner.http.post(url).send({ issue: 'x' }).expect(400);
      await org.owner.http
        .post(url)
        .send({ issue: { priority: 7 } })
        .expect(400);
      await org.owner.http
        .post(url)
        .send({ issue: { assignee_id: 'me' } })
        .expect(400);
      await org.owner.http.post(url).send({ issue_id: 12 }).expect(400);
      await org.owner.http.post(url).send({ issue_id: 'not-a-uuid' }).expect(400);
      await org.owner.http
        .post(url)
        .send({ issue: { assignee_ids: editorId } })
        .expect(400);
      await org.owner.http
        .post(url)
        .send({ issue: { assignee_ids: [editorId, 'x'] } })
        .expect(400);
      expect(await count()).toBe(n);
      expect(await runCount(rule.id)).toBe(0);
    });
  });

  describe('run history', () => {
    it('newest first, at most 100, only real runs, no payloads or inputs', async () => {
      const rule = await create({
        project_id: proj.id,
        conditions: [{ field: 'title', operator: 'contains', value: 'hist' }],
        actions: [{ type: 'post_comment', value: 'SECRET-INPUT' }],
      });
      const first = await newIssue({ title: 'hist one' });
      expect(await waitRuns(rule.id, 1)).toBe(true);
      const second = await newIssue({ title: 'hist two' });
      expect(await waitRuns(rule.id, 2)).toBe(true);
      const r = await admin.http.get(`${rules()}/${rule.id}/activity`).expect(200);
      expect(r.body.runs.map((x: any) => x.issue_id)).toEqual([second.id, first.id]);
      expect(JSON.stringify(r.body)).not.toContain('SECRET');
      expect(Object.keys(r.body.runs[0]).sort()).toEqual(['actions', 'error_code', 'finished_at', 'id', 'issue_id', 'started_at', 'status', 'trigger_event']);
      // bounded: older runs beyond the newest 100 are dropped when a run is recorded
      await t.db.query(
        `INSERT INTO automation_rule_runs (org_id, rule_id, event_id, trigger_event, issue_id, status, actions, automation_depth, started_at, finished_at)
         SELECT $1, $2, gen_random_uuid(), 'issue.created', $3, 'success', '{post_comment}', 0, now() - interval '1 day' - g * interval '1 second', now() - interval '1 day'
           FROM generate_series(1, 120) g`,
        [org.id, rule.id, first.id],
      );
      expect((await runs(rule.id)).length).toBe(100);
      await newIssue({ title: 'hist three' });
      expect(await eventually(async () => (await runCount(rule.id)) === 100)).toBe(true);
      expect((await runs(rule.id))[0].issue_id).not.toBe(first.id);
      await org.owner.http.delete(`${rules()}/${rule.id}`).expect(200);
      expect(await runCount(rule.id)).toBe(0); // the history goes with the rule
    });
  });

  // last: closing the worker module ends the database pool the test app shares
  describe('issues the worker creates', () => {
    it('a scheduled recurrence occurrence (created by the worker sweep) runs issue.created rules in the worker', async () => {
      const src = await newIssue({
        title: 'worker-made',
        priority: 3,
        dueDate: '2026-01-05',
        recurrence_type: 'daily',
        recurrence_interval: 1,
        recurrence_materialization_mode: 'schedule',
        recurrence_time: '09:00',
        recurrence_timezone: 'UTC',
      });
      await t.db.query(`UPDATE issues SET recurrence_next_run_at = now() - interval '1 minute' WHERE org_id = $1 AND id = $2`, [org.id, src.id]);
      const rule = await create({
        project_id: proj.id,
        conditions: [{ field: 'title', operator: 'eq', value: 'worker-made' }],
        actions: [{ type: 'set_priority', value: 0 }],
      });
      const worker = await Test.createTestingModule({ imports: [WorkerModule.forRoot(t.config)] }).compile();
      await worker.init();
      try {
        expect((await worker.get(RecurrenceSweepProcessor, { strict: false }).sweep(new Date(), { orgId: org.id })).created).toBe(1);
        const [occ] = await t.db.query('SELECT id FROM issues WHERE org_id = $1 AND recurrence_source_id = $2', [org.id, src.id]);
        expect(await waitRuns(rule.id, 1)).toBe(true);
        expect((await runs(rule.id))[0]).toMatchObject({ status: 'success', trigger_event: 'issue.created', issue_id: occ.id });
        expect((await getIssue(occ.id)).priority).toBe(0);
        expect((await getIssue(src.id)).priority).toBe(3);
      } finally {
        await disable([rule.id]);
        await worker.close(); // ends the shared database pool: this test runs last
      }
    });
  });
});

/** A webhook destination row of the webhooks module (its routes are not part of this branch's tests). */
async function insertWebhook(t: TestApp, orgId: string, purpose: 'webhook' | 'automation' | 'both'): Promise<string> {
  const id = randomUUID();
  const version = randomUUID();
  await t.db.transaction(async (m) => {
    await m.query(
      `INSERT INTO webhooks (org_id, id, destination_display, events, purpose, current_version_id) VALUES ($1, $2, 'https://example.com', '{}', $3, $4)`,
      [orgId, id, purpose, version],
    );
    await m.query(`INSERT INTO webhook_versions (org_id, id, webhook_id, url_enc, auth_type) VALUES ($1, $2, $3, 'x', 'none')`, [orgId, version, id]);
    await m.query(`INSERT INTO webhook_signing_keys (org_id, webhook_id, version, key_enc) VALUES ($1, $2, 1, 'x')`, [orgId, id]);
  });
  return id;
}
