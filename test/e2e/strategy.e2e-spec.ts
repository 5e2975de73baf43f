import { randomUUID } from 'node:crypto';
import { addMember, bearer, newAgent, newProject, newUser, type TestOrg, type TestUser, uniq } from '../support/factories';
import { FormulaKpiRecalculator } from '../../src/modules/strategy/formula/formula-kpi-recalculator';
import { Test } from '@nestjs/testing';
import { RecurrenceSweepProcessor } from '../../src/modules/recurrence/recurrence-sweep.processor';
import { WorkerModule } from '../../src/worker.module';
import { startTestApp, type TestApp } from '../support/app';
import { eventually, insertIssue, workTrackingWorld } from '../support/issues';

/**
 * Goals, KPIs and snapshots: reads follow strategy visibility (project-bound = project access,
 * organization-level = non-guests), writes are owner/admin; formula KPIs follow linked issues.
 */
describe('strategy: goals, KPIs, snapshots', () => {
  let t: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  let admin: TestUser;
  let member: TestUser;
  let guest: TestUser;
  let proj: { id: string };
  let hidden: { id: string };
  const o = (p: string, orgId = org.id) => `/api/orgs/${orgId}${p}`;
  const goal = async (body: Record<string, unknown> = {}) =>
    (
      await org.owner.http
        .post(o('/goals'))
        .send({ title: uniq('Goal'), ...body })
        .expect(201)
    ).body.goal;
  const kpi = async (body: Record<string, unknown> = {}) =>
    (
      await org.owner.http
        .post(o('/kpis'))
        .send({ name: uniq('kpi'), target_value: 100, ...body })
        .expect(201)
    ).body.kpi;
  const initiative = async (goalId: string | null, projectId: string | null = null, status = 'active') => {
    const id = randomUUID();
    const title = uniq('Ini');
    await t.db.query('INSERT INTO initiatives (org_id, id, title, name, goal_id, project_id, status) VALUES ($1, $2, $3, $3, $4, $5, $6)', [
      org.id,
      id,
      title,
      goalId,
      projectId,
      status,
    ]);
    return id;
  };

  beforeAll(async () => {
    t = await startTestApp();
    ({ org, other, member, guest, proj, hidden } = await workTrackingWorld(t));
    admin = await newUser(t, 'admin');
    await addMember(t, org, admin, 'admin');
  });
  afterAll(() => t.close());

  describe('goals', () => {
    it('creates a goal with every field (trimmed, aliases) and reads it back', async () => {
      const title = uniq('Reach 100');
      const r = await org.owner.http
        .post(o('/goals'))
        .send({ title: `  ${title} `, description: 'why', ownerId: org.ownerMemberId, status: 'active', targetDate: '2031-12-31', project_id: proj.id })
        .expect(201);
      expect(r.body.goal).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        title,
        description: 'why',
        owner_id: org.ownerMemberId,
        status: 'active',
        target_date: '2031-12-31',
        project_id: proj.id,
        created_by_member_id: org.ownerMemberId,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const got = await member.http.get(o(`/goals/${r.body.goal.id}`)).expect(200);
      expect(got.body.goal).toEqual(r.body.goal);
      for (const s of ['active', 'achieved', 'missed', 'paused', 'cancelled']) expect((await goal({ status: s })).status).toBe(s);
    });

    it('updates only the given fields; null clears; admins may write', async () => {
      const g = await goal({ description: 'x', target_date: '2030-01-01' });
      const u = await admin.http
        .patch(o(`/goals/${g.id}`))
        .send({ status: 'achieved', description: null })
        .expect(200);
      expect(u.body.goal).toMatchObject({ status: 'achieved', description: null, target_date: '2030-01-01', title: g.title });
      await org.owner.http
        .patch(o(`/goals/${g.id}`))
        .send({ status: 'done' })
        .expect(400);
    });

    it('deletes: KPIs and initiatives stay without goal', async () => {
      const g = await goal();
      const k = await kpi({ goal_id: g.id });
      const ini = await initiative(g.id);
      expect((await org.owner.http.delete(o(`/goals/${g.id}`)).expect(200)).body).toEqual({ success: true });
      await org.owner.http.get(o(`/goals/${g.id}`)).expect(404);
      expect((await org.owner.http.get(o(`/kpis/${k.id}`)).expect(200)).body.kpi.goal_id).toBeNull();
      expect((await t.db.query('SELECT goal_id FROM initiatives WHERE org_id = $1 AND id = $2', [org.id, ini]))[0].goal_id).toBeNull();
    });

    it('lists readable goals (legacy and envelope), ?status filter, 400 on a bad status', async () => {
      const a = await goal({ status: 'paused' });
      const l = await member.http.get(o('/goals?status=paused&limit=100')).expect(200);
      expect(l.body).toMatchObject({ total: expect.any(Number), limit: 100, offset: 0 });
      expect(l.body.goals.map((g: any) => g.id)).toContain(a.id);
      expect(l.body.goals.every((g: any) => g.status === 'paused')).toBe(true);
      const e = await member.http.get(o('/goals?shape=envelope&limit=1')).expect(200);
      expect(e.body).toMatchObject({ resource: 'goals', items: [expect.any(Object)], limit: 1, offset: 0 });
      await member.http.get(o('/goals?status=someday')).expect(400);
      await member.http.get(o('/goals?limit=0')).expect(400);
    });

    it('visibility: org-level goals hidden from guests; project-bound follow project access', async () => {
      const orgLevel = await goal();
      const onProj = await goal({ project_id: proj.id });
      const onHidden = await goal({ project_id: hidden.id });
      await guest.http.get(o(`/goals/${orgLevel.id}`)).expect(404);
      await guest.http.get(o(`/goals/${onHidden.id}`)).expect(404);
      await guest.http.get(o(`/goals/${onProj.id}`)).expect(200);
      const ids = (await guest.http.get(o('/goals?limit=100')).expect(200)).body.goals.map((g: any) => g.id);
      expect(ids).toContain(onProj.id);
      expect(ids).not.toContain(orgLevel.id);
      expect(ids).not.toContain(onHidden.id);
      await member.http.get(o(`/goals/${onHidden.id}`)).expect(200);
      // writes: concealment first, then 403
      await guest.http
        .patch(o(`/goals/${orgLevel.id}`))
        .send({ title: 'x' })
        .expect(404);
      await guest.http
        .patch(o(`/goals/${onProj.id}`))
        .send({ title: 'x' })
        .expect(403);
      await member.http
        .patch(o(`/goals/${orgLevel.id}`))
        .send({ title: 'x' })
        .expect(403);
      await member.http.delete(o(`/goals/${orgLevel.id}`)).expect(403);
      await member.http.post(o('/goals')).send({ title: 'x' }).expect(403);
      await guest.http.post(o('/goals')).send({ title: 'x' }).expect(403);
    });

    it('401 without credentials, 404 across organizations and for non-UUID ids', async () => {
      const g = await goal();
      await t.http().get(o('/goals')).expect(401);
      await t.http().post(o('/goals')).send({ title: 'x' }).expect(401);
      await other.owner.http.get(o(`/goals/${g.id}`, other.id)).expect(404);
      await other.owner.http
        .patch(o(`/goals/${g.id}`, other.id))
        .send({ title: 'hijack' })
        .expect(404);
      await other.owner.http.delete(o(`/goals/${g.id}`, other.id)).expect(404);
      await other.owner.http.get(o('/goals')).expect(404);
      await org.owner.http.get(o('/goals/x')).expect(404);
    });

    it('400 on malformed input, never 500', async () => {
      for (const body of [
        {},
        { title: 123 },
        { title: '   ' },
        { title: 'g', status: 'x' },
        { title: 'g', target_date: '2024-02-30' },
        { title: 'g', owner_id: 'x' },
        { title: 'g', owner_id: randomUUID() },
        { title: 'g', ownerId: org.ownerMemberId, owner_id: randomUUID() },
        { title: 'x'.repeat(501) },
        { title: 'g', description: 5 },
      ]) {
        const r = await org.owner.http.post(o('/goals')).send(body);
        expect([r.status, body]).toEqual([400, body]);
        expect(r.body.error).toEqual(expect.any(String));
      }
      await org.owner.http.post(o('/goals')).send({ title: 'g', project_id: randomUUID() }).expect(404);
      await org.owner.http.post(o('/goals')).send({ title: 'g', project_id: other.id }).expect(404);
    });
  });

  describe('KPIs', () => {
    it('creates a KPI with every field and aliases; detail has initiative_impacts', async () => {
      const g = await goal();
      const r = await org.owner.http
        .post(o('/kpis'))
        .send({
          name: ' paying_customers ',
          description: 'Total',
          goalId: g.id,
          unit: 'count',
          unitLabel: 'customers',
          baselineValue: 10,
          target_value: 100,
          targetDate: '2031-06-30',
          target_direction: 'increase',
          sourceType: 'manual',
          stale_after_hours: 168,
        })
        .expect(201);
      expect(r.body.kpi).toEqual({
        id: expect.any(String),
        name: 'paying_customers',
        description: 'Total',
        goal_id: g.id,
        project_id: null,
        unit: 'count',
        unit_label: 'customers',
        baseline_value: 10,
        target_value: 100,
        target_date: '2031-06-30',
        target_direction: 'increase',
        source_type: 'manual',
        source_config: null,
        stale_after_hours: 168,
        current_value: null,
        last_recorded_at: null,
        created_by_member_id: org.ownerMemberId,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const d = await member.http.get(o(`/kpis/${r.body.kpi.id}`)).expect(200);
      expect(d.body.kpi).toEqual({ ...r.body.kpi, initiative_impacts: [] });
      const u = await org.owner.http
        .patch(o(`/kpis/${r.body.kpi.id}`))
        .send({ target_value: 250, unit_label: null })
        .expect(200);
      expect(u.body.kpi).toMatchObject({ target_value: 250, unit_label: null, baseline_value: 10 });
      const l = await member.http.get(o(`/kpis?goal_id=${g.id}`)).expect(200);
      expect(l.body.kpis.map((k: any) => k.id)).toEqual([r.body.kpi.id]);
      await member.http.get(o('/kpis?goal_id=x')).expect(400);
      await member.http.get(o(`/kpis?goal_id=${randomUUID()}`)).expect(404);
      expect((await member.http.get(o('/kpis?shape=envelope')).expect(200)).body.resource).toBe('kpis');
    });

    it('KPI detail shows impact links only of initiatives the caller can read', async () => {
      const k = await kpi({ project_id: proj.id });
      const visible = await initiative(null, proj.id);
      const secret = await initiative(null, hidden.id);
      const orgLevel = await initiative(null, null, 'paused');
      for (const [i, e] of [
        [visible, '+10'],
        [secret, '+20'],
        [orgLevel, null],
      ] as const) {
        await t.db.query('INSERT INTO initiative_kpi_impacts (org_id, initiative_id, kpi_id, expected_impact) VALUES ($1, $2, $3, $4)', [org.id, i, k.id, e]);
      }
      const owner = (await org.owner.http.get(o(`/kpis/${k.id}`)).expect(200)).body.kpi.initiative_impacts;
      expect(owner.map((x: any) => x.initiative_id).sort()).toEqual([visible, secret, orgLevel].sort());
      expect(owner.find((x: any) => x.initiative_id === visible)).toEqual({
        id: expect.any(String),
        initiative_id: visible,
        kpi_id: k.id,
        expected_impact: '+10',
        created_at: expect.any(String),
        initiative: { id: visible, title: expect.any(String), name: expect.any(String), status: 'active' },
      });
      const g = (await guest.http.get(o(`/kpis/${k.id}`)).expect(200)).body.kpi.initiative_impacts;
      expect(g.map((x: any) => x.initiative_id)).toEqual([visible]);
    });

    it('visibility, 401, 403, 404 across organizations', async () => {
      const orgLevel = await kpi();
      const onHidden = await kpi({ project_id: hidden.id });
      await guest.http.get(o(`/kpis/${orgLevel.id}`)).expect(404);
      await guest.http.get(o(`/kpis/${onHidden.id}`)).expect(404);
      expect((await guest.http.get(o('/kpis?limit=100')).expect(200)).body.kpis.map((k: any) => k.id)).not.toContain(orgLevel.id);
      await member.http
        .patch(o(`/kpis/${orgLevel.id}`))
        .send({ name: 'x' })
        .expect(403);
      await member.http.delete(o(`/kpis/${orgLevel.id}`)).expect(403);
      await member.http.post(o('/kpis')).send({ name: 'x' }).expect(403);
      await guest.http.delete(o(`/kpis/${orgLevel.id}`)).expect(404);
      await t
        .http()
        .get(o(`/kpis/${orgLevel.id}`))
        .expect(401);
      await other.owner.http.get(o(`/kpis/${orgLevel.id}`, other.id)).expect(404);
      await other.owner.http.get(o(`/kpis/${orgLevel.id}/snapshots`, other.id)).expect(404);
      await other.owner.http
        .post(o(`/kpis/${orgLevel.id}/snapshots`, other.id))
        .send({ value: 1 })
        .expect(404);
      await org.owner.http.post(o('/kpis')).send({ name: 'k', goal_id: randomUUID() }).expect(404);
      expect((await org.owner.http.delete(o(`/kpis/${onHidden.id}`)).expect(200)).body).toEqual({ success: true });
      await org.owner.http.get(o(`/kpis/${onHidden.id}`)).expect(404);
    });

    it('400 on malformed input', async () => {
      for (const body of [
        {},
        { name: 'k', unit: 'furlongs' },
        { name: 'k', target_direction: 'sideways' },
        { name: 'k', source_type: 'telepathy' },
        { name: 'k', target_value: 'abc' },
        { name: 'k', source_config: 'x' },
        { name: 'k', source_type: 'formula', source_config: { formula: 'evil' } },
        { name: 'k', goal_id: 'x' },
        { name: 'k', stale_after_hours: -1 },
        { name: 'k', stale_after_hours: 1.5 },
        { name: 'k', stale_after_hours: 0 },
        { name: 'k', target_date: '2031-13-01' },
        { name: 'k', baseline_value: 'NaN' },
        { name: 'k', source_type: 'formula' },
        { name: 'k', source_type: 'formula', source_config: { formula: 'goal_linked_issue_completion', done_statuses: [] } },
        { name: 'k', source_type: 'formula', source_config: { formula: 'goal_linked_issue_completion', done_statuses: ['done'] } },
      ]) {
        const r = await org.owner.http.post(o('/kpis')).send(body);
        expect([r.status, body]).toEqual([400, body]);
      }
    });
  });

  describe('snapshots', () => {
    it('records snapshots: current_value follows, list newest first, aliases and attribution', async () => {
      const k = await kpi({ project_id: proj.id });
      const issue = await insertIssue(t, org.id, proj.id);
      const ini = await initiative(null, proj.id);
      const s1 = await org.owner.http
        .post(o(`/kpis/${k.id}/snapshots`))
        .send({ value: 42 })
        .expect(201);
      expect(s1.body.snapshot).toMatchObject({
        kpi_id: k.id,
        value: 42,
        source: 'manual',
        attribution_note: null,
        recorded_by_member_id: org.ownerMemberId,
        source_sync_id: null,
      });
      expect((await org.owner.http.get(o(`/kpis/${k.id}`))).body.kpi).toMatchObject({ current_value: 42, last_recorded_at: s1.body.snapshot.created_at });
      const s2 = await admin.http
        .post(o(`/kpis/${k.id}/snapshots`))
        .send({ value: 57.5, source: 'agent', attributionNote: ' Checked ', attributed_to_initiative_id: ini, attributedToIssueId: issue.id })
        .expect(201);
      expect(s2.body.snapshot).toMatchObject({
        value: 57.5,
        source: 'agent',
        attribution_note: 'Checked',
        attributed_to_initiative_id: ini,
        attributed_to_issue_id: issue.id,
      });
      expect((await member.http.get(o(`/kpis/${k.id}`))).body.kpi.current_value).toBe(57.5);
      const l = await guest.http.get(o(`/kpis/${k.id}/snapshots`)).expect(200);
      expect(l.body).toMatchObject({ total: 2, limit: 25, offset: 0 });
      expect(l.body.snapshots.map((s: any) => s.value)).toEqual([57.5, 42]);
      expect((await member.http.get(o(`/kpis/${k.id}/snapshots?shape=envelope`)).expect(200)).body.items).toHaveLength(2);
    });

    it('a reader sees attribution only to issues and initiatives it can read (ids of unreadable ones are null)', async () => {
      const k = await kpi({ project_id: proj.id });
      const hiddenIssue = await insertIssue(t, org.id, hidden.id);
      const hiddenIni = await initiative(null, hidden.id);
      const orgIni = await initiative(null);
      const projIssue = await insertIssue(t, org.id, proj.id);
      await org.owner.http
        .post(o(`/kpis/${k.id}/snapshots`))
        .send({ value: 1, attributed_to_issue_id: hiddenIssue.id, attributed_to_initiative_id: hiddenIni })
        .expect(201);
      await org.owner.http
        .post(o(`/kpis/${k.id}/snapshots`))
        .send({ value: 2, attributed_to_issue_id: projIssue.id, attributed_to_initiative_id: orgIni })
        .expect(201);
      const pick = (b: any) => b.snapshots.map((s: any) => [s.value, s.attributed_to_issue_id, s.attributed_to_initiative_id]);
      // the guest reads proj only: not the hidden project's issue and initiative, nor organization-level initiatives
      expect(pick((await guest.http.get(o(`/kpis/${k.id}/snapshots`)).expect(200)).body)).toEqual([
        [2, projIssue.id, null],
        [1, null, null],
      ]);
      // members read every project
      expect(pick((await member.http.get(o(`/kpis/${k.id}/snapshots`)).expect(200)).body)).toEqual([
        [2, projIssue.id, orgIni],
        [1, hiddenIssue.id, hiddenIni],
      ]);
    });

    it('who records: owners, admins and admin agents; members and guests 403; unreadable 404', async () => {
      const k = await kpi({ project_id: proj.id });
      const orgLevel = await kpi();
      const agent = await newAgent(t, org, { role: 'admin' });
      await bearer(t, agent.key)
        .post(o(`/kpis/${k.id}/snapshots`))
        .send({ value: 1, source: 'agent' })
        .expect(201);
      const memberAgent = await newAgent(t, org, { role: 'member' });
      await bearer(t, memberAgent.key)
        .post(o(`/kpis/${k.id}/snapshots`))
        .send({ value: 1, source: 'agent' })
        .expect(403);
      await member.http
        .post(o(`/kpis/${k.id}/snapshots`))
        .send({ value: 1 })
        .expect(403);
      await guest.http
        .post(o(`/kpis/${k.id}/snapshots`))
        .send({ value: 1 })
        .expect(403);
      await guest.http
        .post(o(`/kpis/${orgLevel.id}/snapshots`))
        .send({ value: 1 })
        .expect(404);
      await guest.http.get(o(`/kpis/${orgLevel.id}/snapshots`)).expect(404);
      await t
        .http()
        .post(o(`/kpis/${k.id}/snapshots`))
        .send({ value: 1 })
        .expect(401);
    });

    it('validates: value, source, api_poll reserved, attribution targets exist and are readable', async () => {
      const k = await kpi();
      const hiddenIssue = await insertIssue(t, org.id, hidden.id);
      const foreign = await insertIssue(t, other.id, null);
      for (const body of [
        {},
        { value: 'lots' },
        { value: null },
        { value: 1, source: 'rumour' },
        { value: 1, attribution_note: 7 },
        { value: 1, attributed_to_issue_id: 'x' },
        { value: 1, attribution_note: 'x'.repeat(2001) },
      ]) {
        const r = await org.owner.http.post(o(`/kpis/${k.id}/snapshots`)).send(body);
        expect([r.status, body]).toEqual([400, body]);
      }
      const poll = await org.owner.http
        .post(o(`/kpis/${k.id}/snapshots`))
        .send({ value: 1, source: 'api_poll' })
        .expect(400);
      expect(poll.body.code).toBe('snapshot_source_reserved');
      await org.owner.http
        .post(o(`/kpis/${k.id}/snapshots`))
        .send({ value: 1, attributed_to_issue_id: foreign.id })
        .expect(404);
      await org.owner.http
        .post(o(`/kpis/${k.id}/snapshots`))
        .send({ value: 1, attributed_to_initiative_id: randomUUID() })
        .expect(404);
      // readable for the owner: fine
      await org.owner.http
        .post(o(`/kpis/${k.id}/snapshots`))
        .send({ value: 1, attributed_to_issue_id: hiddenIssue.id })
        .expect(201);
      expect((await org.owner.http.get(o(`/kpis/${k.id}/snapshots`))).body.total).toBe(1);
    });
  });

  describe('formula KPI goal_linked_issue_completion', () => {
    it('counts direct and milestone-linked non-archived issues once, and follows issue changes', async () => {
      const g = await goal();
      const ini = await initiative(g.id, proj.id);
      const ini2 = await initiative(g.id, proj.id, 'paused');
      const ms = (
        await org.owner.http
          .post(o(`/projects/${proj.id}/milestones`))
          .send({ name: uniq('ms') })
          .expect(201)
      ).body.milestone;
      const f1 = await insertIssue(t, org.id, proj.id, { status: 'done' });
      const f2 = await insertIssue(t, org.id, proj.id, { status: 'todo' });
      const f3 = await insertIssue(t, org.id, proj.id, { status: 'todo' });
      const f4 = await insertIssue(t, org.id, proj.id, { status: 'done', milestoneId: ms.id });
      const archived = await insertIssue(t, org.id, proj.id, { status: 'done', archived: true });
      for (const i of [f1, f2, f3, archived])
        await t.db.query('INSERT INTO initiative_issues (org_id, initiative_id, issue_id) VALUES ($1, $2, $3)', [org.id, ini, i.id]);
      // the same issue through a second initiative and through its milestone counts once
      await t.db.query('INSERT INTO initiative_issues (org_id, initiative_id, issue_id) VALUES ($1, $2, $3)', [org.id, ini2, f4.id]);
      await t.db.query('INSERT INTO initiative_milestones (org_id, initiative_id, milestone_id) VALUES ($1, $2, $3)', [org.id, ini, ms.id]);
      const k = (
        await org.owner.http
          .post(o('/kpis'))
          .send({
            name: uniq('formula'),
            goal_id: g.id,
            source_type: 'formula',
            source_config: { formula: 'goal_linked_issue_completion', done_statuses: ['done'] },
          })
          .expect(201)
      ).body.kpi;
      expect(k).toMatchObject({ current_value: 2, target_value: 4, source_config: { formula: 'goal_linked_issue_completion', done_statuses: ['done'] } });
      const value = async () => {
        const r = (await org.owner.http.get(o(`/kpis/${k.id}`)).expect(200)).body.kpi;
        return [r.current_value, r.target_value];
      };
      // status change through the API
      await org.owner.http
        .patch(o(`/issues/${f2.id}`))
        .send({ status: 'done' })
        .expect(200);
      expect(await eventually(async () => JSON.stringify(await value()) === '[3,4]')).toBe(true);
      // archive
      await org.owner.http.post(o(`/issues/${f3.id}/archive`)).expect((r) => expect([200, 201]).toContain(r.status));
      expect(await eventually(async () => JSON.stringify(await value()) === '[3,3]')).toBe(true);
      // a new issue created in the linked milestone
      await org.owner.http.post(o('/issues')).send({ title: 'new in milestone', projectId: proj.id, milestoneId: ms.id, status: 'todo' }).expect(201);
      expect(await eventually(async () => JSON.stringify(await value()) === '[3,4]')).toBe(true);
      // taken out of the milestone
      await org.owner.http
        .patch(o(`/issues/${f4.id}`))
        .send({ milestoneId: null })
        .expect(200);
      expect(await eventually(async () => JSON.stringify(await value()) === '[3,4]')).toBe(true); // still linked through ini2
      await t.db.query('DELETE FROM initiative_issues WHERE org_id = $1 AND initiative_id = $2', [org.id, ini2]);
      await org.owner.http
        .patch(o(`/issues/${f4.id}`))
        .send({ title: 'retitled' })
        .expect(200); // not a counted field: no recalculation
      expect(await value()).toEqual([3, 4]);
      // delete (recalculates the organization's formula KPIs: f4's unlinking counts now too)
      await org.owner.http.delete(o(`/issues/${f1.id}`)).expect(200);
      expect(await eventually(async () => JSON.stringify(await value()) === '[1,2]')).toBe(true);
      // manual snapshots are refused
      const r = await org.owner.http
        .post(o(`/kpis/${k.id}/snapshots`))
        .send({ value: 99, source: 'manual' })
        .expect(400);
      expect(r.body.code).toBe('formula_kpi_snapshot_rejected');
      expect((await value())[0]).not.toBe(99);
    });

    it('follows deletes that cascade: a linked milestone deleted, a project deleted', async () => {
      const g = await goal();
      const p = await newProject(t, org);
      const ini = await initiative(g.id);
      const ms = (
        await org.owner.http
          .post(o(`/projects/${p.id}/milestones`))
          .send({ name: uniq('ms') })
          .expect(201)
      ).body.milestone;
      const direct = await insertIssue(t, org.id, p.id, { status: 'done' });
      await insertIssue(t, org.id, p.id, { status: 'todo', milestoneId: ms.id });
      await t.db.query('INSERT INTO initiative_issues (org_id, initiative_id, issue_id) VALUES ($1, $2, $3)', [org.id, ini, direct.id]);
      await t.db.query('INSERT INTO initiative_milestones (org_id, initiative_id, milestone_id) VALUES ($1, $2, $3)', [org.id, ini, ms.id]);
      const k = (
        await org.owner.http
          .post(o('/kpis'))
          .send({ name: uniq('f'), goal_id: g.id, source_type: 'formula', source_config: { formula: 'goal_linked_issue_completion', done_statuses: ['done'] } })
          .expect(201)
      ).body.kpi;
      expect(k).toMatchObject({ current_value: 1, target_value: 2 });
      const value = async () => {
        const r = (await org.owner.http.get(o(`/kpis/${k.id}`)).expect(200)).body.kpi;
        return JSON.stringify([r.current_value, r.target_value]);
      };
      // the milestone goes: its issue stays (milestone_id cleared) but is no longer linked work
      await org.owner.http.delete(o(`/milestones/${ms.id}`)).expect(200);
      expect(await eventually(async () => (await value()) === '[1,1]')).toBe(true);
      // the project goes with its issues
      await org.owner.http
        .delete(o(`/projects/${p.id}`))
        .send({ confirmation: 'DELETE' })
        .expect(200);
      expect(await eventually(async () => (await value()) === '[0,0]')).toBe(true);
    });

    it('follows bulk status moves: deleting a board column reassigns its issues', async () => {
      const g = await goal();
      const p = await newProject(t, org);
      const ini = await initiative(g.id);
      const todoIssue = await insertIssue(t, org.id, p.id, { status: 'todo' });
      await t.db.query('INSERT INTO initiative_issues (org_id, initiative_id, issue_id) VALUES ($1, $2, $3)', [org.id, ini, todoIssue.id]);
      const k = (
        await org.owner.http
          .post(o('/kpis'))
          .send({ name: uniq('f'), goal_id: g.id, source_type: 'formula', source_config: { formula: 'goal_linked_issue_completion', done_statuses: ['done'] } })
          .expect(201)
      ).body.kpi;
      expect(k).toMatchObject({ current_value: 0, target_value: 1 });
      const columns = (await org.owner.http.get(o(`/projects/${p.id}/board-columns`)).expect(200)).body.columns as Array<{ id: string; key: string }>;
      const todo = columns.find((c) => c.key === 'todo')!;
      const done = columns.find((c) => c.key === 'done')!;
      await org.owner.http.delete(o(`/projects/${p.id}/board-columns/${todo.id}?reassignTo=${done.id}`)).expect(200);
      const value = async () => {
        const r = (await org.owner.http.get(o(`/kpis/${k.id}`)).expect(200)).body.kpi;
        return JSON.stringify([r.current_value, r.target_value]);
      };
      expect(await eventually(async () => (await value()) === '[1,1]')).toBe(true);
    });

    it('a KPI update does not deadlock with a recalculation in flight (both take the organization lock first)', async () => {
      const g = await goal();
      const k = (
        await org.owner.http
          .post(o('/kpis'))
          .send({ name: uniq('f'), goal_id: g.id, source_type: 'formula', source_config: { formula: 'goal_linked_issue_completion', done_statuses: ['done'] } })
          .expect(201)
      ).body.kpi;
      // a recalculation holding the organization's formula lock, about to update the KPI row
      const qr = t.db.createQueryRunner();
      await qr.connect();
      await qr.startTransaction();
      try {
        await qr.query(`SELECT pg_advisory_xact_lock(hashtextextended('formula-kpi:' || $1::text, 0))`, [org.id]);
        const holder = (await qr.query('SELECT pg_backend_pid() AS pid'))[0].pid;
        const patch = org.owner.http
          .patch(o(`/kpis/${k.id}`))
          .send({ name: 'renamed' })
          .then((r) => r);
        // wait until the PATCH waits on this transaction (deterministic: polls the server's view, no
        // sleeps asserted; only backends that this one blocks count, not other test files' lock waits)
        const blocked = async () =>
          (await t.db.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))', [holder]))[0].n > 0;
        expect(await eventually(blocked)).toBe(true);
        await qr.query('UPDATE kpis SET updated_at = now() WHERE org_id = $1 AND id = $2', [org.id, k.id]);
        await qr.commitTransaction();
        const r = await patch;
        expect(r.status).toBe(200);
        expect(r.body.kpi.name).toBe('renamed');
      } finally {
        if (qr.isTransactionActive) await qr.rollbackTransaction();
        await qr.release();
      }
    });

    it('recalculates through the exported service after link changes; done_statuses are exact', async () => {
      const recalc = t.app.get(FormulaKpiRecalculator);
      const g = await goal();
      const k = (
        await org.owner.http
          .post(o('/kpis'))
          .send({
            name: uniq('f'),
            goalId: g.id,
            sourceType: 'formula',
            sourceConfig: { formula: 'goal_linked_issue_completion', done_statuses: ['shipped', 'done', 'done'] },
          })
          .expect(201)
      ).body.kpi;
      expect(k).toMatchObject({ current_value: 0, target_value: 0, source_config: { done_statuses: ['shipped', 'done'] } });
      const ini = await initiative(g.id, proj.id);
      const a = await insertIssue(t, org.id, proj.id, { status: 'shipped' });
      const b = await insertIssue(t, org.id, proj.id, { status: 'cancelled' });
      await t.db.query('INSERT INTO initiative_issues (org_id, initiative_id, issue_id) VALUES ($1, $2, $3), ($1, $2, $4)', [org.id, ini, a.id, b.id]);
      expect(await recalc.recalculateForInitiative(org.id, ini)).toEqual([k.id]);
      expect((await org.owner.http.get(o(`/kpis/${k.id}`))).body.kpi).toMatchObject({ current_value: 1, target_value: 2 });
      expect(await recalc.recalculateForGoal(org.id, g.id)).toEqual([]); // nothing changed
      // switching the KPI to manual keeps its values; target_value may not be sent for formula KPIs
      await org.owner.http
        .patch(o(`/kpis/${k.id}`))
        .send({ target_value: 5 })
        .expect(400);
      const m = await org.owner.http
        .patch(o(`/kpis/${k.id}`))
        .send({ source_type: 'manual' })
        .expect(200);
      expect(m.body.kpi).toMatchObject({ source_type: 'manual', source_config: null, current_value: 1 });
    });
  });

  it('deleting the organization cascades through strategy rows', async () => {
    const owner = await newUser(t, 'owner');
    const res = await owner.http
      .post('/api/orgs')
      .send({ name: uniq('Doomed') })
      .expect(201);
    const id = res.body.organization.id;
    const g = (await owner.http.post(o('/goals', id)).send({ title: 'g' }).expect(201)).body.goal;
    const k = (await owner.http.post(o('/kpis', id)).send({ name: 'k', goal_id: g.id }).expect(201)).body.kpi;
    await owner.http
      .post(o(`/kpis/${k.id}/snapshots`, id))
      .send({ value: 3 })
      .expect(201);
    const ini = randomUUID();
    await t.db.query(`INSERT INTO initiatives (org_id, id, title, name, goal_id) VALUES ($1, $2, 'i', 'i', $3)`, [id, ini, g.id]);
    await t.db.query('INSERT INTO initiative_kpi_impacts (org_id, initiative_id, kpi_id) VALUES ($1, $2, $3)', [id, ini, k.id]);
    await owner.http
      .delete(`/api/orgs/${id}`)
      .send({ confirmation: 'DELETE' })
      .expect((r) => expect(r.status).toBe(200));
    for (const table of ['goals', 'kpis', 'kpi_snapshots', 'initiatives', 'initiative_kpi_impacts']) {
      expect((await t.db.query(`SELECT count(*)::int AS n FROM ${table} WHERE org_id = $1`, [id]))[0].n).toBe(0);
    }
  });

  // last: closing a second (worker) Nest context ends the pool the API test app shares
  it('the worker process keeps formula KPIs current too (an issue created by the recurrence sweep in a linked milestone)', async () => {
    const g = await goal();
    const ini = await initiative(g.id, proj.id);
    const ms = (
      await org.owner.http
        .post(o(`/projects/${proj.id}/milestones`))
        .send({ name: uniq('ms') })
        .expect(201)
    ).body.milestone;
    await t.db.query('INSERT INTO initiative_milestones (org_id, initiative_id, milestone_id) VALUES ($1, $2, $3)', [org.id, ini, ms.id]);
    const src = await insertIssue(t, org.id, proj.id, { status: 'done', milestoneId: ms.id, dueDate: '2026-01-01' });
    await t.db.query(
      `UPDATE issues SET recurrence_type = 'daily', recurrence_interval = 1, recurrence_mode = 'schedule', recurrence_time = '09:00', recurrence_timezone = 'UTC',
              recurrence_next_run_at = now() - interval '1 hour' WHERE org_id = $1 AND id = $2`,
      [org.id, src.id],
    );
    const k = (
      await org.owner.http
        .post(o('/kpis'))
        .send({ name: uniq('f'), goal_id: g.id, source_type: 'formula', source_config: { formula: 'goal_linked_issue_completion', done_statuses: ['done'] } })
        .expect(201)
    ).body.kpi;
    expect(k).toMatchObject({ current_value: 1, target_value: 1 });
    const ref = await Test.createTestingModule({ imports: [WorkerModule.forRoot(t.config)] }).compile();
    await ref.init();
    try {
      expect((await ref.get(RecurrenceSweepProcessor, { strict: false }).sweep(new Date(), { orgId: org.id })).created).toBe(1);
      const value = async () =>
        JSON.stringify(Object.values((await t.db.query('SELECT current_value, target_value FROM kpis WHERE org_id = $1 AND id = $2', [org.id, k.id]))[0]));
      expect(await eventually(async () => (await value()) === '[1,2]')).toBe(true);
    } finally {
      await ref.close();
    }
  });
});
