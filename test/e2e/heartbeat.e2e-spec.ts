import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { AccessPolicyService } from '../../src/common/access/access-policy.service';
import { actorForMember } from '../../src/common/auth/principal';
import { Sql } from '../../src/database/sql.service';
import { HeartbeatComposer } from '../../src/modules/heartbeat/heartbeat-composer.service';
import { defaultPolicy } from '../../src/modules/heartbeat/heartbeat-policy';
import { addMember, bearer, newAgent, newOrg, newProject, newUser, type TestOrg, type TestUser, uniq } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import { sameBytesSpellings } from '../support/base64url';
import { insertIssue } from '../support/issues';

/**
 * The agent heartbeat (issue 14): access, compact vs full, signals and their suppression, the
 * recommended action's ordering, byte budget and cursor sequence, per-agent policy.
 */
const DAY = 86_400_000;
const dateIn = (d: number) => new Date(Date.now() + d * DAY).toISOString().slice(0, 10);
const has = (v: unknown, needle: string) => JSON.stringify(v).includes(needle);
const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

describe('heartbeat', () => {
  let t: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  let pa: { id: string; name: string };
  let pb: { id: string; name: string };
  let admin: { memberId: string; key: string; id: string };
  let guest: { memberId: string; key: string; id: string };
  let member: TestUser;
  const o = (p: string, id = org.id) => `/api/orgs/${id}${p}`;
  const hb = async (key: string, q = '', status = 200) =>
    (
      await bearer(t, key)
        .get(o(`/heartbeat${q ? `?${q}` : ''}`))
        .expect(status)
    ).body;
  const dep = (blocked: string, blocker: string) =>
    org.owner.http
      .post(o(`/issues/${blocked}/dependencies`))
      .send({ blockedByIssueId: blocker })
      .expect(201);
  const full = async (key = admin.key) => (await hb(key, 'view=full')).signals as Array<Record<string, any>>;
  const about = (sigs: Array<Record<string, any>>, type: string, id: string) => sigs.find((s) => s.type === type && has(s, id));

  beforeAll(async () => {
    t = await startTestApp();
    org = await newOrg(t);
    other = await newOrg(t);
    pa = await newProject(t, org, uniq('Hearth A'));
    pb = await newProject(t, org, uniq('Hearth B'));
    admin = await newAgent(t, org, { role: 'admin' });
    guest = await newAgent(t, org, { projectIds: [pa.id] });
    member = await newUser(t, 'member');
    await addMember(t, org, member, 'member');
  });
  afterAll(() => t.close());

  describe('access', () => {
    it('anonymous 401; another organization 404 (compact and full)', async () => {
      await t.http().get(o('/heartbeat')).expect(401);
      const foreign = await newAgent(t, other, { role: 'admin' });
      await bearer(t, foreign.key).get(o('/heartbeat')).expect(404);
      await bearer(t, foreign.key).get(o('/heartbeat?view=full')).expect(404);
    });

    it('a project-scoped agent learns nothing of another project (compact and full), and gets board context of exactly its project', async () => {
      const secret = await insertIssue(t, org.id, pb.id, {
        title: uniq('HB-B secret'),
        status: 'in_progress',
        assigneeId: org.ownerMemberId,
        dueDate: dateIn(-4),
      });
      const waiting = await insertIssue(t, org.id, pb.id, { title: uniq('HB-B waiting'), status: 'todo', dueDate: dateIn(-2) });
      await dep(waiting.id, secret.id);
      const ms = (
        await org.owner.http
          .post(o(`/projects/${pb.id}/milestones`))
          .send({ name: uniq('HB-B ms'), target_date: dateIn(-6) })
          .expect(201)
      ).body.milestone;
      for (const q of ['', 'view=full']) {
        const b = await hb(guest.key, q);
        for (const needle of [pb.id, pb.name, secret.id, secret.title, waiting.id, ms.id, ms.name]) expect(has(b, needle)).toBe(false);
      }
      const f = await hb(guest.key, 'view=full');
      expect(f.project_context.map((p: any) => p.project_id)).toEqual([pa.id]);
      expect(f.project_context[0].board_columns.map((c: any) => c.key)).toEqual(['backlog', 'todo', 'in_progress', 'done']);
      // the admin agent sees project B's dependency signal
      expect(about(await full(), 'issue_blocked', waiting.id)).toBeDefined();
    });

    it('members see every project and organization-level strategy; guests no organization-level strategy', async () => {
      const goal = (
        await org.owner.http
          .post(o('/goals'))
          .send({ title: uniq('org goal'), status: 'active' })
          .expect(201)
      ).body.goal;
      const { key } = await newAgent(t, org, {}); // organization agent, role member
      expect(has((await hb(key, 'view=full')).goals, goal.id)).toBe(true);
      expect(has(await hb(guest.key, 'view=full'), goal.id)).toBe(false);
    });
  });

  describe('compact and full', () => {
    it('compact (default) is the envelope without the full sections; full is the legacy briefing', async () => {
      const c = await hb(admin.key);
      for (const k of ['attention_items', 'attention_summary', 'signal_groups', 'recommended_action', 'counts', 'delta', 'page', 'execution_attention'])
        expect(c).toHaveProperty(k);
      for (const k of ['goals', 'standalone_kpis', 'standalone_initiatives', 'assigned_issues', 'project_context', 'signals']) expect(c).not.toHaveProperty(k);
      expect(c.execution_attention).toEqual({ resolved_unread: [], open: [] });
      const f = await hb(admin.key, 'view=full');
      expect(f.agent).toEqual({ id: admin.memberId, display_name: expect.any(String) });
      expect(Date.parse(f.timestamp)).not.toBeNaN();
      for (const k of ['goals', 'standalone_kpis', 'standalone_initiatives', 'assigned_issues', 'project_context', 'signals', 'attention_items'])
        expect(Array.isArray(f[k])).toBe(true);
      expect(f.execution_attention).toEqual({ open: [], resolved_unread: [] });
    });

    it('bad query values are 400 in the error shape', async () => {
      for (const q of [
        'view=board',
        'max_bytes=0',
        'max_bytes=16385',
        'max_bytes=abc',
        'bogus=1',
        'view=full&cursor=x',
        'view=full&since=x',
        'cursor=a&since=b',
      ]) {
        const b = await hb(admin.key, q, 400);
        expect(b).toEqual(expect.objectContaining({ error: expect.any(String), code: 'validation_failed' }));
      }
    });
  });

  describe('signals', () => {
    it('issue_blocked groups under the owned overdue blocker with its release condition; an unowned backlog blocker alone never alerts', async () => {
      const b1 = await insertIssue(t, org.id, pa.id, {
        title: uniq('blocker owned'),
        status: 'in_progress',
        assigneeId: org.ownerMemberId,
        dueDate: dateIn(-3),
      });
      const x1 = await insertIssue(t, org.id, pa.id, { title: uniq('blocked 1'), status: 'todo', assigneeId: admin.memberId });
      const x1b = await insertIssue(t, org.id, pa.id, { title: uniq('blocked 1b'), status: 'todo' });
      await dep(x1.id, b1.id);
      await dep(x1b.id, b1.id);
      const b2 = await insertIssue(t, org.id, pa.id, { title: uniq('blocker unowned'), status: 'backlog' });
      const x2 = await insertIssue(t, org.id, pa.id, { title: uniq('blocked 2'), status: 'todo', assigneeId: admin.memberId });
      await dep(x2.id, b2.id);
      const c = await hb(admin.key);
      const g = c.signal_groups.find((s: any) => s.type === 'issue_blocked' && s.blocker?.id === b1.id);
      expect(g).toEqual(
        expect.objectContaining({
          category: 'task',
          severity: 'warning',
          release_condition: expect.objectContaining({ key: 'done', label: 'Done' }),
          suggested_read: expect.stringContaining(b1.id),
        }),
      );
      expect(g.issues.map((i: any) => i.id).sort()).toEqual([x1.id, x1b.id].sort());
      expect(g.metadata.reasons).toEqual(['blocker_overdue']);
      expect(c.signal_groups.some((s: any) => has(s, b2.id) || has(s, x2.id))).toBe(false);
      expect((await full()).some((s) => has(s, x2.id))).toBe(false);
      expect(c.counts.suppressed_expected_waits).toBeGreaterThanOrEqual(1);
      // the same unowned blocker alerts once the waiting issue is overdue (a threatened commitment)
      await t.db.query('UPDATE issues SET due_date = $3 WHERE org_id = $1 AND id = $2', [org.id, x2.id, dateIn(-1)]);
      expect(about(await full(), 'issue_blocked', x2.id)?.metadata.reasons).toEqual(['commitment_overdue']);
    });

    it("milestone_overdue, issue_stale (the caller's started work unchanged 7+ days)", async () => {
      const ms = (
        await org.owner.http
          .post(o(`/projects/${pa.id}/milestones`))
          .send({ name: uniq('late'), target_date: dateIn(-10) })
          .expect(201)
      ).body.milestone;
      await insertIssue(t, org.id, pa.id, { milestoneId: ms.id, status: 'todo' });
      const m = about(await full(), 'milestone_overdue', ms.id)!;
      expect(m).toEqual(expect.objectContaining({ category: 'project', severity: 'critical' }));
      const old = await insertIssue(t, org.id, pa.id, {
        status: 'in_progress',
        assigneeId: admin.memberId,
        createdAt: new Date(Date.now() - 9 * DAY).toISOString(),
      });
      const fresh = await insertIssue(t, org.id, pa.id, { status: 'in_progress', assigneeId: admin.memberId });
      const todo = await insertIssue(t, org.id, pa.id, {
        status: 'todo',
        assigneeId: admin.memberId,
        createdAt: new Date(Date.now() - 30 * DAY).toISOString(),
      });
      const sigs = await full();
      expect(about(sigs, 'issue_stale', old.id)).toEqual(expect.objectContaining({ category: 'task', severity: 'warning' }));
      expect(about(sigs, 'issue_stale', fresh.id)).toBeUndefined();
      expect(about(sigs, 'issue_stale', todo.id)).toBeUndefined();
    });

    it('KPI off pace and stale (one canonical status, movement metadata); paused/cancelled goals silent', async () => {
      const goal = (
        await org.owner.http
          .post(o('/goals'))
          .send({ title: uniq('goal'), status: 'active', target_date: dateIn(20) })
          .expect(201)
      ).body.goal;
      const mk = async (goalId: string, extra = {}) =>
        (
          await org.owner.http
            .post(o('/kpis'))
            .send({ name: uniq('kpi'), goal_id: goalId, target_value: 1000, target_direction: 'increase', unit: 'count', stale_after_hours: 720, ...extra })
            .expect(201)
        ).body.kpi;
      const off = await mk(goal.id);
      const ini = (
        await org.owner.http
          .post(o('/initiatives'))
          .send({ title: uniq('ini'), goal_id: goal.id, status: 'active', project_id: pa.id })
          .expect(201)
      ).body.initiative;
      await org.owner.http
        .post(o(`/initiatives/${ini.id}/kpi-impacts`))
        .send({ kpi_id: off.id, expected_impact: '+100 per month' })
        .expect(201);
      for (const v of [30, 20])
        await org.owner.http
          .post(o(`/kpis/${off.id}/snapshots`))
          .send({ value: v, source: 'manual' })
          .expect(201);
      await org.owner.http
        .post(o(`/kpis/${off.id}/snapshots`))
        .send({ value: 10, source: 'manual', attributed_to_initiative_id: ini.id, attribution_note: 'dip' })
        .expect(201);
      const stale = await mk(goal.id, { stale_after_hours: 1 });
      await org.owner.http
        .post(o(`/kpis/${stale.id}/snapshots`))
        .send({ value: 5, source: 'manual' })
        .expect(201);
      await t.db.query(`UPDATE kpis SET last_recorded_at = now() - interval '3 hours' WHERE org_id = $1 AND id = $2`, [org.id, stale.id]);
      const paused = (
        await org.owner.http
          .post(o('/goals'))
          .send({ title: uniq('paused'), status: 'paused', target_date: dateIn(20) })
          .expect(201)
      ).body.goal;
      const kp = await mk(paused.id);
      for (const v of [30, 10])
        await org.owner.http
          .post(o(`/kpis/${kp.id}/snapshots`))
          .send({ value: v, source: 'manual' })
          .expect(201);

      const sigs = await full();
      const s = about(sigs, 'kpi_off_pace', off.id)!;
      expect(s).toEqual(expect.objectContaining({ category: 'KPI', severity: 'warning' }));
      expect(s.metadata.linked_initiatives).toEqual([{ id: ini.id, title: ini.title, status: 'active', expected_impact: '+100 per month' }]);
      expect(s.metadata.recent_attributed_snapshots).toEqual([
        expect.objectContaining({ value: 10, attributed_to_initiative_id: ini.id, attribution_note: 'dip' }),
      ]);
      const st = sigs.filter((x) => has(x, stale.id) && x.type.startsWith('kpi_'));
      expect(st.map((x) => x.type)).toEqual(['kpi_stale']); // one canonical status
      expect(sigs.some((x) => x.type.startsWith('kpi_') && has(x, kp.id))).toBe(false);
      // the audit (same thresholds, same code) agrees
      const audit = (await org.owner.http.get(o('/strategy/audit')).expect(200)).body.findings;
      expect(audit.some((f: any) => f.type === 'kpi_off_pace' && f.kpi_id === off.id)).toBe(true);
    });

    it('gate targets: due soon and overdue with stateful counts, never pace language; initiative_stalled; paused initiatives silent', async () => {
      const mkIni = async (status: string) => {
        const ini = (
          await org.owner.http
            .post(o('/initiatives'))
            .send({ title: uniq(`ini ${status}`), status, project_id: pa.id, target_date: dateIn(-30) })
            .expect(201)
        ).body.initiative;
        for (let i = 0; i < 2; i++) {
          const issue = await insertIssue(t, org.id, pa.id, { status: 'todo' });
          await org.owner.http
            .post(o(`/initiatives/${ini.id}/issues`))
            .send({ issue_id: issue.id })
            .expect(201);
        }
        return ini;
      };
      const act = await mkIni('active');
      const paused = await mkIni('paused');
      const target = async (iniId: string, b: Record<string, unknown>) =>
        (
          await org.owner.http
            .post(o(`/initiatives/${iniId}/targets`))
            .send({ title: uniq('gate'), mode: 'gate', unit: 'count', target_direction: 'increase', due_soon_days: 7, ...b })
            .expect(201)
        ).body.target;
      const soon = await target(act.id, { current_value: 2, target_value: 5, target_date: dateIn(3) });
      const over = await target(act.id, { current_value: 1, target_value: 4, target_date: dateIn(-3) });
      const pausedT = await target(paused.id, { current_value: 1, target_value: 4, target_date: dateIn(-3) });
      const sigs = await full();
      const s = about(sigs, 'initiative_target_due_soon', soon.id)!;
      expect(s.message).toMatch(/\b2\/5 complete\b/);
      expect(s.message).not.toMatch(/pace/);
      expect(about(sigs, 'initiative_target_overdue', over.id)!.message).toMatch(/\b1\/4 complete\b/);
      expect(about(sigs, 'initiative_stalled', act.id)).toEqual(expect.objectContaining({ category: 'initiative', severity: 'critical' }));
      expect(sigs.some((x) => has(x, paused.id) || has(x, pausedT.id))).toBe(false);
    });

    it('webhook_failing for owners/admins only', async () => {
      const hook = (
        await org.owner.http
          .post(`/api/webhooks?orgId=${org.id}`)
          .send({ url: 'https://hooks.example.com/in', events: ['issue.created'], enabled: true })
          .expect(201)
      ).body.webhook;
      await t.db.query('UPDATE webhooks SET consecutive_failures = 3, last_failure_at = now() WHERE org_id = $1 AND id = $2', [org.id, hook.id]);
      expect(about(await full(), 'webhook_failing', hook.id)).toEqual(expect.objectContaining({ category: 'project', severity: 'warning' }));
      expect(has(await hb(guest.key, 'view=full'), hook.id)).toBe(false);
    });
  });

  describe('recommended_action', () => {
    const FIELDS = [
      'id',
      'action_type',
      'title',
      'target_type',
      'target_id',
      'goal_id',
      'kpi_id',
      'initiative_id',
      'source_signal_ids',
      'why_now',
      'expected_impact',
      'evidence',
      'first_step',
      'success_criteria',
      'suggested_write',
      'confidence',
      'caveats',
      'quality_checks',
      'usage_guidance',
    ];
    /** A fresh organization with an admin agent, built by `seed`, then its recommendation. */
    async function scenario(
      seed: (x: { o: TestOrg; p: string; agent: string; kpi: (stale: boolean) => Promise<{ kpi: any; ini: any }> }) => Promise<Record<string, any>>,
    ) {
      const o2 = await newOrg(t);
      const p = (
        await o2.owner.http
          .post(`/api/orgs/${o2.id}/projects`)
          .send({
            name: uniq('RA'),
            key: `R${randomUUID()
              .slice(0, 4)
              .replace(/[^a-f]/g, 'A')
              .toUpperCase()}`,
          })
          .expect(201)
      ).body.project.id;
      const a = await newAgent(t, o2, { role: 'admin' });
      const kpi = async (stale: boolean) => {
        const goal = (
          await o2.owner.http
            .post(`/api/orgs/${o2.id}/goals`)
            .send({ title: uniq('g'), status: 'active', target_date: dateIn(20) })
            .expect(201)
        ).body.goal;
        const k = (
          await o2.owner.http
            .post(`/api/orgs/${o2.id}/kpis`)
            .send({ name: uniq('k'), goal_id: goal.id, target_value: 1000, target_direction: 'increase', unit: 'count', stale_after_hours: stale ? 1 : 720 })
            .expect(201)
        ).body.kpi;
        for (const v of stale ? [500] : [30, 20, 10])
          await o2.owner.http.post(`/api/orgs/${o2.id}/kpis/${k.id}/snapshots`).send({ value: v, source: 'manual' }).expect(201);
        if (stale) await t.db.query(`UPDATE kpis SET last_recorded_at = now() - interval '5 hours' WHERE org_id = $1 AND id = $2`, [o2.id, k.id]);
        const ini = (
          await o2.owner.http
            .post(`/api/orgs/${o2.id}/initiatives`)
            .send({ title: uniq('i'), goal_id: goal.id, status: 'active', project_id: p })
            .expect(201)
        ).body.initiative;
        await o2.owner.http.post(`/api/orgs/${o2.id}/initiatives/${ini.id}/kpi-impacts`).send({ kpi_id: k.id, expected_impact: '+50' }).expect(201);
        return { kpi: k, ini };
      };
      const ctx = await seed({ o: o2, p, agent: a.memberId, kpi });
      const b = (await bearer(t, a.key).get(`/api/orgs/${o2.id}/heartbeat`).expect(200)).body;
      return { ra: b.recommended_action, ctx, key: a.key, orgId: o2.id };
    }
    const link = (o2: TestOrg, ini: string, issue: string) =>
      o2.owner.http.post(`/api/orgs/${o2.id}/initiatives/${ini}/issues`).send({ issue_id: issue }).expect(201);

    it.each([
      [
        'blockers before off-pace KPI work and unrelated work',
        async ({ o: o2, p, agent, kpi }: any) => {
          await kpi(false);
          const blocker = await insertIssue(t, o2.id, p, { status: 'in_progress', assigneeId: o2.ownerMemberId, dueDate: dateIn(-3) });
          const blocked = await insertIssue(t, o2.id, p, { status: 'todo', assigneeId: agent, dueDate: dateIn(-1) });
          await o2.owner.http.post(`/api/orgs/${o2.id}/issues/${blocked.id}/dependencies`).send({ blockedByIssueId: blocker.id }).expect(201);
          await insertIssue(t, o2.id, p, { status: 'todo', assigneeId: agent, priority: 0 });
          return { type: 'escalate_blocker', target: blocker.id, op: 'comment.create' };
        },
      ],
      [
        'executable work for an off-pace KPI before a stale refresh and unrelated work',
        async ({ o: o2, p, agent, kpi }: any) => {
          const { ini } = await kpi(false);
          await kpi(true);
          const work = await insertIssue(t, o2.id, p, { status: 'todo', assigneeId: agent, priority: 3 });
          await link(o2, ini.id, work.id);
          await insertIssue(t, o2.id, p, { status: 'todo', assigneeId: agent, priority: 0 });
          return { type: 'start_work', target: work.id, op: 'issue.update' };
        },
      ],
      [
        'an off-pace KPI without assigned work: create work on its initiative (HTML body)',
        async ({ kpi }: any) => {
          const { ini } = await kpi(false);
          return { type: 'create_work', target: ini.id, op: 'issue.create' };
        },
      ],
      [
        'a critical standalone overdue milestone without assigned work: investigate before stale-metric maintenance',
        async ({ o: o2, p, kpi }: any) => {
          await kpi(true);
          const ms = (
            await o2.owner.http
              .post(`/api/orgs/${o2.id}/projects/${p}/milestones`)
              .send({ name: uniq('m'), target_date: dateIn(-12) })
              .expect(201)
          ).body.milestone;
          await insertIssue(t, o2.id, p, { status: 'todo', milestoneId: ms.id });
          return { type: 'investigate', target: ms.id, op: 'none' };
        },
      ],
      [
        'a stale KPI refresh before unrelated assigned work',
        async ({ o: o2, p, agent, kpi }: any) => {
          const { kpi: k } = await kpi(true);
          await insertIssue(t, o2.id, p, { status: 'todo', assigneeId: agent, priority: 0 });
          return { type: 'refresh_metric', target: k.id, op: 'kpi.snapshot.create' };
        },
      ],
      [
        'signal-backed assigned work (issue of an overdue milestone) before a stale refresh',
        async ({ o: o2, p, agent, kpi }: any) => {
          await kpi(true);
          const ms = (
            await o2.owner.http
              .post(`/api/orgs/${o2.id}/projects/${p}/milestones`)
              .send({ name: uniq('m'), target_date: dateIn(-12) })
              .expect(201)
          ).body.milestone;
          const w = await insertIssue(t, o2.id, p, { status: 'todo', assigneeId: agent, milestoneId: ms.id });
          return { type: 'start_work', target: w.id, op: 'issue.update' };
        },
      ],
      [
        'only unrelated assigned work: start it (plain-text body)',
        async ({ o: o2, p, agent }: any) => {
          const w = await insertIssue(t, o2.id, p, { status: 'todo', assigneeId: agent, priority: 1 });
          return { type: 'start_work', target: w.id, op: 'issue.update' };
        },
      ],
    ])('%s', async (_name, seed) => {
      const { ra, ctx, key, orgId } = await scenario(seed as any);
      expect(Object.keys(ra).sort()).toEqual([...FIELDS].sort());
      expect(ra.action_type).toBe(ctx.type);
      expect(ra.target_id).toBe(ctx.target);
      expect(ra.suggested_write.operation).toBe(ctx.op);
      if (ctx.op === 'issue.create') expect(ra.suggested_write.body).toMatch(/^<p>/);
      else if (ra.suggested_write.body) expect(ra.suggested_write.body).not.toMatch(/</);
      // deterministic: same state, same answer, same id
      const again = (await bearer(t, key).get(`/api/orgs/${orgId}/heartbeat`).expect(200)).body.recommended_action;
      expect(again).toEqual(ra);
      expect((await bearer(t, key).get(`/api/orgs/${orgId}/heartbeat?view=full`).expect(200)).body.recommended_action).toEqual(ra);
    });
  });

  describe('paging, cursors, budget', () => {
    let pager: { memberId: string; key: string; id: string };
    let porg: TestOrg;
    const get = (q = '', status = 200) =>
      bearer(t, pager.key)
        .get(`/api/orgs/${porg.id}/heartbeat${q ? `?${q}` : ''}`)
        .expect(status);
    const notify = async (title: string) => {
      const issue = await insertIssue(t, porg.id, null, { title });
      await t.db.query(
        `INSERT INTO notifications (org_id, recipient_member_id, event_type, severity, action_kind, issue_id, actor_member_id, actor_type, title)
         VALUES ($1, $2, 'issue.assigned', 'info', 'start_work', $3, $4, 'human', $5)`,
        [porg.id, pager.memberId, issue.id, porg.ownerMemberId, title],
      );
      return issue;
    };

    beforeAll(async () => {
      porg = await newOrg(t);
      pager = await newAgent(t, porg, {});
      for (let i = 0; i < 30; i++) await notify(`Ünïcødé 🚀 ${String(i).padStart(2, '0')} ${'ℵ'.repeat(120)}`);
    });

    it('fresh → next → terminal → ack (idempotent) → since returns only new items; reuse is 409; tampered/invalid 400', async () => {
      const first = await get();
      expect(bytes(first.text)).toBeLessThanOrEqual(16384);
      expect(first.body.page).toEqual(
        expect.objectContaining({ max_bytes: 16384, max_items: 25, has_more: true, next_cursor: expect.any(String), returned_bytes: bytes(first.text) }),
      );
      expect(first.body.page).not.toHaveProperty('ack_cursor');
      expect(first.body.attention_items.length).toBeLessThanOrEqual(25);
      expect(first.body.attention_summary.total).toBe(30);
      expect(first.body.attention_items[0]).toEqual({
        id: expect.any(String),
        event_type: 'issue.assigned',
        severity: 'info',
        title: expect.any(String),
        resource_type: 'issue',
        ack_endpoint: expect.stringMatching(/\/ack$/),
        resource_id: expect.any(String),
      });
      const c1 = first.body.page.next_cursor;
      // none of these advance the sequence
      await get(`cursor=${encodeURIComponent(c1.slice(0, 10) + (c1[10] === 'A' ? 'B' : 'A') + c1.slice(11))}`, 400);
      // the other spellings of the signature's last character decode to the same bytes: refused too
      for (const twin of sameBytesSpellings(c1)) await get(`cursor=${encodeURIComponent(twin)}`, 400);
      await get('cursor=not-a-heartbeat-cursor', 400);
      expect((await get(`cursor=${encodeURIComponent(c1)}&max_bytes=64`, 413)).body.code).toBe('heartbeat_budget_too_small');
      await get(`view=full&cursor=${encodeURIComponent(c1)}`, 400);
      const pages = [first.body];
      let cur = first.body;
      while (cur.page.has_more) {
        const r = await get(`cursor=${encodeURIComponent(cur.page.next_cursor)}`);
        expect(bytes(r.text)).toBeLessThanOrEqual(16384);
        cur = r.body;
        pages.push(cur);
      }
      expect(pages.length).toBeGreaterThan(1);
      expect(cur.page.next_cursor).toBeNull();
      const ack = cur.page.ack_cursor;
      expect(typeof ack).toBe('string');
      const ids = pages.flatMap((p) => p.attention_items.map((a: any) => a.id));
      expect(new Set(ids).size).toBe(30);
      expect((await get(`cursor=${encodeURIComponent(c1)}`, 409)).body.code).toBe('heartbeat_cursor_stale');
      // since before the acknowledgement: 409; ack twice: 200; since: nothing already delivered
      expect((await get(`since=${encodeURIComponent(ack)}`, 409)).body.code).toBe('heartbeat_cursor_stale');
      await bearer(t, pager.key).post(`/api/orgs/${porg.id}/heartbeat/ack`).send({ cursor: ack }).expect(200);
      await bearer(t, pager.key).post(`/api/orgs/${porg.id}/heartbeat/ack`).send({ cursor: ack }).expect(200);
      await bearer(t, pager.key).post(`/api/orgs/${porg.id}/heartbeat/ack`).send({ cursor: 'garbage' }).expect(400);
      await bearer(t, pager.key).post(`/api/orgs/${porg.id}/heartbeat/ack`).send({}).expect(400);
      const s1 = (await get(`since=${encodeURIComponent(ack)}`)).body;
      expect(s1.attention_items).toEqual([]);
      expect(s1.delta).toEqual(expect.objectContaining({ mode: 'since', reset_required: false, unchanged_count: 30 }));
      const fresh = await notify(uniq('new one'));
      const s2 = (await get(`since=${encodeURIComponent(ack)}`)).body;
      expect(s2.attention_items.map((a: any) => a.resource_id)).toEqual([fresh.id]);
      // an unacknowledged terminal cursor as since: 409
      expect((await get(`since=${encodeURIComponent(s2.page.ack_cursor)}`, 409)).body.code).toBe('heartbeat_cursor_stale');
      // an expired baseline: a fresh answer with reset_required
      await t.db.query(`UPDATE heartbeat_streams SET acked_at = now() - interval '8 days' WHERE org_id = $1`, [porg.id]);
      const s3 = (await get(`since=${encodeURIComponent(ack)}`)).body;
      expect(s3.delta.reset_required).toBe(true);
      expect(s3.attention_items.length).toBeGreaterThan(1);
    });

    it('max_bytes: too small is 413; a page never exceeds it, multi-byte characters counted as UTF-8 bytes', async () => {
      expect((await get('max_bytes=64', 413)).body).toEqual(expect.objectContaining({ code: 'heartbeat_budget_too_small' }));
      for (const max of [4000, 16384]) {
        const r = await get(`max_bytes=${max}`);
        expect(bytes(r.text)).toBeLessThanOrEqual(max);
        expect(r.body.page.returned_bytes).toBe(bytes(r.text));
        expect(r.body.page.max_bytes).toBe(max);
      }
      // the smallest budget that holds the envelope and one item: exactly one item, within it
      const one = await get('max_bytes=4000');
      expect(one.body.attention_items.length).toBeLessThan(25);
    });

    it('a foreign cursor (another member) is 400', async () => {
      const first = (await get()).body;
      const otherAgent = await newAgent(t, porg, {});
      await bearer(t, otherAgent.key)
        .get(`/api/orgs/${porg.id}/heartbeat?cursor=${encodeURIComponent(first.page.next_cursor)}`)
        .expect(400);
    });
  });

  describe('kept results (read models heartbeat and heartbeat-context)', () => {
    let korg: TestOrg;
    let ka: { id: string; name: string };
    let kb: { id: string; name: string };
    let x1: { memberId: string; key: string; id: string };
    let x2: { memberId: string; key: string; id: string };
    let y: { memberId: string; key: string; id: string };
    const k = (p: string) => `/api/orgs/${korg.id}${p}`;
    const kget = async (key: string, q = '', status = 200) =>
      bearer(t, key)
        .get(k(`/heartbeat${q ? `?${q}` : ''}`))
        .expect(status);
    const notifyK = async (memberId: string, projectId: string, title: string, commentId: string | null = null) => {
      const issue = await insertIssue(t, korg.id, projectId, { title: uniq('about') });
      await t.db.query(
        `INSERT INTO notifications (org_id, recipient_member_id, event_type, severity, action_kind, issue_id, comment_id, actor_member_id, actor_type, title)
         VALUES ($1, $2, 'mention.created', 'info', 'respond_to_comment', $3, $4, $5, 'human', $6)`,
        [korg.id, memberId, issue.id, commentId, korg.ownerMemberId, title],
      );
      return issue;
    };

    beforeAll(async () => {
      korg = await newOrg(t);
      ka = await newProject(t, korg, uniq('Kept A'));
      kb = await newProject(t, korg, uniq('Kept B'));
      x1 = await newAgent(t, korg, { projectIds: [ka.id] });
      x2 = await newAgent(t, korg, { projectIds: [ka.id] });
      y = await newAgent(t, korg, { projectIds: [kb.id] });
    });

    it('a write changes the next heartbeat: issue update, notification (new, acknowledged, deleted comment), strategy change, policy change', async () => {
      const mine = await insertIssue(t, korg.id, ka.id, { title: uniq('Mine'), status: 'in_progress', assigneeId: x1.memberId, assigneeIds: [x1.memberId] });
      const first = (await kget(x1.key, 'view=full')).body;
      expect(first.assigned_issues.map((i: any) => i.title)).toEqual([mine.title]);
      // unchanged data: the kept view is served again (the same response)
      expect((await kget(x1.key, 'view=full')).text).toBe(JSON.stringify(first));

      // an issue update through the API
      const renamed = uniq('Mine renamed');
      await korg.owner.http
        .patch(k(`/issues/${mine.id}`))
        .send({ title: renamed })
        .expect(200);
      expect((await kget(x1.key, 'view=full')).body.assigned_issues.map((i: any) => i.title)).toEqual([renamed]);

      // notifications: a new one, its acknowledgement, a deleted comment hides one
      const before = (await kget(x1.key)).body.attention_summary.total;
      await notifyK(x1.memberId, ka.id, uniq('ping'));
      expect((await kget(x1.key)).body.attention_summary.total).toBe(before + 1);
      await t.db.query(`UPDATE notifications SET acknowledged_at = now() WHERE org_id = $1 AND recipient_member_id = $2`, [korg.id, x1.memberId]);
      expect((await kget(x1.key)).body.attention_summary.total).toBe(0);
      const onIssue = await insertIssue(t, korg.id, ka.id, {});
      const [comment] = await t.db.query(
        `INSERT INTO comments (org_id, issue_id, author_type, author_member_id, body) VALUES ($1, $2, 'member', $3, '<p>hi</p>') RETURNING id`,
        [korg.id, onIssue.id, korg.ownerMemberId],
      );
      await notifyK(x1.memberId, ka.id, uniq('reply'), comment.id);
      expect((await kget(x1.key)).body.attention_summary.total).toBe(1);
      await t.db.query(`UPDATE comments SET deleted_at = now() WHERE org_id = $1 AND id = $2`, [korg.id, comment.id]);
      expect((await kget(x1.key)).body.attention_summary.total).toBe(0);

      // a strategy change: an overdue milestone in the agent's project
      const ms = (
        await korg.owner.http
          .post(k(`/projects/${ka.id}/milestones`))
          .send({ name: uniq('Kept late'), target_date: dateIn(-9) })
          .expect(201)
      ).body.milestone;
      const groups = (await kget(x1.key)).body.signal_groups;
      expect(groups.find((g: any) => g.type === 'milestone_overdue' && g.metadata.milestone_id === ms.id)).toBeDefined();
      await korg.owner.http
        .patch(k(`/milestones/${ms.id}`))
        .send({ status: 'completed' })
        .expect(200);
      expect(has((await kget(x1.key)).body.signal_groups, ms.id)).toBe(false);
      await korg.owner.http
        .patch(k(`/milestones/${ms.id}`))
        .send({ status: 'active' })
        .expect(200);
      expect(has((await kget(x1.key)).body.signal_groups, ms.id)).toBe(true);

      // a policy change (saved by a human who manages the agent), and its removal
      const policy = k(`/agents/${x1.id}/heartbeat-policy`);
      await korg.owner.http
        .put(policy)
        .send({ policy: { sections: { signals: false } } })
        .expect(200);
      expect((await kget(x1.key)).body.signal_groups).toEqual([]);
      await korg.owner.http.delete(policy).expect(200);
      expect(has((await kget(x1.key)).body.signal_groups, ms.id)).toBe(true);
    });

    it('kept results never cross callers: the same access shares no attention or assigned work; other access sees nothing of the project', async () => {
      const own = await insertIssue(t, korg.id, ka.id, { title: uniq('X1 own'), status: 'todo', assigneeId: x1.memberId });
      const note = uniq('X1 note');
      await notifyK(x1.memberId, ka.id, note);
      const ms = (
        await korg.owner.http
          .post(k(`/projects/${ka.id}/milestones`))
          .send({ name: uniq('Shared late'), target_date: dateIn(-3) })
          .expect(201)
      ).body.milestone;
      // x1 first (its results are kept), then x2 (the same projects) and y (another project), twice each
      for (let round = 0; round < 2; round++) {
        for (const q of ['', 'view=full']) {
          const b1 = (await kget(x1.key, q)).body;
          // (assigned work is listed in the full view)
          expect([has(b1, own.id) || q === '', has(b1, note), has(b1, ms.id)]).toEqual([true, true, true]);
          const b2 = (await kget(x2.key, q)).body;
          // the project's signal is shared; x1's own work and attention are not
          expect([has(b2, own.id), has(b2, note), has(b2, ms.id)]).toEqual([false, false, true]);
          expect(b2.agent.id).toBe(x2.memberId);
          const by = (await kget(y.key, q)).body;
          for (const needle of [ka.id, ka.name, own.id, own.title, note, ms.id, ms.name]) expect(has(by, needle)).toBe(false);
          expect(by.agent.id).toBe(y.memberId);
        }
      }
    });

    it("the attention part is kept across ordinary issue writes (no attention statement), and follows its issue's project (moved out of reach: hidden)", async () => {
      const sql = t.app.get(Sql);
      const note = uniq('Kept attention');
      const about = await notifyK(x2.memberId, ka.id, note);
      const other = await insertIssue(t, korg.id, ka.id, { title: uniq('Other'), status: 'todo' });
      expect(has((await kget(x2.key)).body.attention_items, note)).toBe(true);
      const sent: string[] = [];
      const send = (sql as any).send.bind(sql);
      const spy = jest.spyOn(sql as any, 'send').mockImplementation((...a: any[]) => {
        sent.push(String(a[0].text));
        return send(...a);
      });
      try {
        // an ordinary write of an issue the agent reads: it recomposes (assigned work read again), attention kept
        await korg.owner.http
          .patch(k(`/issues/${other.id}`))
          .send({ priority: 1 })
          .expect(200);
        sent.length = 0;
        expect(has((await kget(x2.key)).body.attention_items, note)).toBe(true);
        expect(sent.some((q) => /assignee_id = \$4/.test(q))).toBe(true);
        expect(sent.filter((q) => /\bnotifications\b|\battention_items\b/.test(q))).toEqual([]);
      } finally {
        spy.mockRestore();
      }
      // the issue moves to a project x2 cannot read: its notification is no longer visible
      await t.db.query(`UPDATE issues SET project_id = $3 WHERE org_id = $1 AND id = $2`, [korg.id, about.id, kb.id]);
      const moved = (await kget(x2.key)).body;
      expect(has(moved.attention_items, note)).toBe(false);
      // and back
      await t.db.query(`UPDATE issues SET project_id = $3 WHERE org_id = $1 AND id = $2`, [korg.id, about.id, ka.id]);
      expect(has((await kget(x2.key)).body.attention_items, note)).toBe(true);
    });

    /** An active initiative of `projectId` (its id). */
    const initiativeOf = async (projectId: string, title: string) => {
      const id = randomUUID();
      await t.db.query(`INSERT INTO initiatives (org_id, id, title, name, status, project_id) VALUES ($1, $2, $3, $3, 'active', $4)`, [
        korg.id,
        id,
        uniq(title),
        projectId,
      ]);
      return id;
    };

    /**
     * Records the statements the app sends; `beat(key)` is that caller's compact heartbeat with what
     * it computed (the statements besides the credential, version and stream reads).
     */
    const recordStatements = () => {
      const sql = t.app.get(Sql);
      const sent: string[] = [];
      const send = (sql as any).send.bind(sql);
      const spy = jest.spyOn(sql as any, 'send').mockImplementation((...a: any[]) => {
        sent.push(String(a[0].text));
        return send(...a);
      });
      const beat = async (key: string, q = '') => {
        sent.length = 0;
        const body = (await kget(key, q)).body;
        const computed = sent.filter((x) => !/FROM data_versions|FROM heartbeat_streams|FROM api_keys|api_key_lookup|FROM members/.test(x));
        return { body, computed, statements: sent.length };
      };
      return { beat, stop: () => spy.mockRestore() };
    };

    it("kept by subject: a write in a project the agent cannot read, or another member's notification, recomputes nothing; its own project's write and its own notification do", async () => {
      const mineA = await insertIssue(t, korg.id, ka.id, { title: uniq('A work'), status: 'in_progress', assigneeId: x2.memberId });
      const inB = await insertIssue(t, korg.id, kb.id, { title: uniq('B work'), status: 'todo' });
      const rec = recordStatements();
      const beat = () => rec.beat(x2.key);
      try {
        await beat();
        // nothing changed: the credential, then the versions with the stream head (one statement)
        expect(await beat()).toEqual(expect.objectContaining({ computed: [], statements: 2 }));
        // project B (x2 reads only A): an issue write there, and a notification to y, keep x2's heartbeat
        await korg.owner.http
          .patch(k(`/issues/${inB.id}`))
          .send({ priority: 1 })
          .expect(200);
        await notifyK(y.memberId, kb.id, uniq('for y'));
        expect((await beat()).computed).toEqual([]);
        // project A: a write of its own work shows at once
        await korg.owner.http
          .patch(k(`/issues/${mineA.id}`))
          .send({ priority: 1 })
          .expect(200);
        const after = await beat();
        expect(after.computed.length).toBeGreaterThan(0);
        // its own notification too (and only its attention is read again, not the project's context)
        const note = uniq('for x2');
        await notifyK(x2.memberId, ka.id, note);
        const noted = await beat();
        expect(has(noted.body.attention_items, note)).toBe(true);
      } finally {
        rec.stop();
      }
    });

    it("another project's work beside the agent's issues shows at once (a blocker's change, a dependency, the blocker's columns, an initiative link); work beside none of them recomputes nothing", async () => {
      const mine = await insertIssue(t, korg.id, ka.id, { title: uniq('Waits'), status: 'todo', assigneeId: x2.memberId });
      const blocker = await insertIssue(t, korg.id, kb.id, { title: uniq('Blocker in B'), status: 'todo' });
      const [waitsInB, blocksInB] = [await insertIssue(t, korg.id, kb.id, { status: 'todo' }), await insertIssue(t, korg.id, kb.id, { status: 'todo' })];
      const column = async (key: string) =>
        (await t.db.query(`SELECT id, position FROM board_columns WHERE org_id = $1 AND project_id = $2 AND key = $3`, [korg.id, kb.id, key]))[0];
      const [todo, started] = [await column('todo'), await column('in_progress')];
      /** The todo and in_progress columns of B trade places (one statement; the position key is checked at commit). */
      const swapColumns = () =>
        t.db.query(
          `UPDATE board_columns c SET position = o.position FROM board_columns o
            WHERE c.org_id = $1 AND o.org_id = $1 AND ((c.id = $2 AND o.id = $3) OR (c.id = $3 AND o.id = $2))`,
          [korg.id, todo.id, started.id],
        );
      const initiative = await initiativeOf(ka.id, 'Beside');
      const link = (issue: string) =>
        t.db.query('INSERT INTO initiative_issues (org_id, initiative_id, issue_id) VALUES ($1, $2, $3)', [korg.id, initiative, issue]);
      /** The dependency group of x2's issue (its blocker is in a project x2 cannot read). */
      const group = (body: any) => (body.signal_groups as any[]).find((g) => g.type === 'issue_blocked' && has(g.issues, mine.id));
      /** The initiative as x2's full view shows it. */
      const shown = (body: unknown): any => {
        const found: any[] = [];
        const walk = (v: any) => {
          if (Array.isArray(v)) v.forEach(walk);
          else if (v && typeof v === 'object') {
            if (v.initiative?.id === initiative) found.push(v);
            else Object.values(v).forEach(walk);
          }
        };
        walk(body);
        return found[0];
      };
      const rec = recordStatements();
      try {
        await rec.beat(x2.key);
        expect(group((await rec.beat(x2.key)).body)).toBeUndefined();
        // a dependency on the blocker, written alone (no issue row changes)
        await t.db.query('INSERT INTO issue_dependencies (org_id, blocked_issue_id, blocking_issue_id) VALUES ($1, $2, $3)', [korg.id, mine.id, blocker.id]);
        const blocked = group((await rec.beat(x2.key)).body);
        expect(blocked).toEqual(expect.objectContaining({ blocker: null, release_condition: expect.objectContaining({ key: 'done' }) }));
        // work in B beside no issue x2 reads: a dependency there and a write of its blocker keep x2's heartbeat
        await t.db.query('INSERT INTO issue_dependencies (org_id, blocked_issue_id, blocking_issue_id) VALUES ($1, $2, $3)', [
          korg.id,
          waitsInB.id,
          blocksInB.id,
        ]);
        await t.db.query(`UPDATE issues SET priority = 1 WHERE org_id = $1 AND id = $2`, [korg.id, blocksInB.id]);
        expect((await rec.beat(x2.key)).computed).toEqual([]);
        // its release column (a column of B), then B's columns reordered so the blocker's column reaches it: released
        await t.db.query(`UPDATE issue_dependencies SET release_column_id = $3 WHERE org_id = $1 AND blocked_issue_id = $2`, [korg.id, mine.id, started.id]);
        expect(group((await rec.beat(x2.key)).body)?.release_condition).toEqual(expect.objectContaining({ column_id: started.id, key: 'in_progress' }));
        await swapColumns();
        expect(group((await rec.beat(x2.key)).body)).toBeUndefined();
        await swapColumns();
        expect(group((await rec.beat(x2.key)).body)).toBeDefined();
        // the blocker itself done (a write in B only)
        await t.db.query(`UPDATE issues SET status = 'done' WHERE org_id = $1 AND id = $2`, [korg.id, blocker.id]);
        expect(group((await rec.beat(x2.key)).body)).toBeUndefined();

        // an initiative of A: a link of x2's issue counts at once; a link of B's work keeps x2's heartbeat
        expect(shown((await rec.beat(x2.key, 'view=full')).body)).toEqual(expect.objectContaining({ total_issues: 0 }));
        await link(mine.id);
        expect(shown((await rec.beat(x2.key, 'view=full')).body)).toEqual(expect.objectContaining({ total_issues: 1 }));
        await link(waitsInB.id);
        const kept = await rec.beat(x2.key, 'view=full');
        expect([kept.computed, shown(kept.body).total_issues]).toEqual([[], 1]);
      } finally {
        rec.stop();
      }
    });

    it("a milestone's open issues counted from another project: a change of such an issue shows in the milestone's project", async () => {
      const ms = (
        await korg.owner.http
          .post(k(`/projects/${ka.id}/milestones`))
          .send({ name: uniq('Cross late'), target_date: dateIn(-5) })
          .expect(201)
      ).body.milestone;
      const elsewhere = await insertIssue(t, korg.id, kb.id, { title: uniq('Elsewhere'), status: 'todo' });
      await t.db.query(`UPDATE issues SET milestone_id = $3 WHERE org_id = $1 AND id = $2`, [korg.id, elsewhere.id, ms.id]);
      const signal = async () =>
        ((await kget(x1.key)).body.signal_groups as any[]).find((g) => g.type === 'milestone_overdue' && g.metadata.milestone_id === ms.id);
      const open = (await signal()).metadata.open_issues;
      expect(open).toBeGreaterThan(0);
      await t.db.query(`UPDATE issues SET status = 'done' WHERE org_id = $1 AND id = $2`, [korg.id, elsewhere.id]);
      expect((await signal()).metadata.open_issues).toBe(open - 1);
    });

    it("a target's blocked work is counted from what the agent reads (no projectless issue for a project-scoped agent), and its blocker's change shows at once", async () => {
      const initiative = await initiativeOf(ka.id, 'Gated');
      const target = randomUUID();
      await t.db.query(
        `INSERT INTO initiative_targets (org_id, id, initiative_id, title, mode, current_value, target_value, target_date) VALUES ($1, $2, $3, $4, 'gate', 0, 3, '2099-01-01')`,
        [korg.id, target, initiative, uniq('Gate')],
      );
      const blocker = await insertIssue(t, korg.id, kb.id, { title: uniq('Holds'), status: 'todo' });
      const gated = async (projectId: string | null) => {
        const issue = await insertIssue(t, korg.id, projectId, { status: 'todo' });
        await t.db.query('INSERT INTO initiative_target_issues (org_id, target_id, issue_id) VALUES ($1, $2, $3)', [korg.id, target, issue.id]);
        await t.db.query('INSERT INTO issue_dependencies (org_id, blocked_issue_id, blocking_issue_id) VALUES ($1, $2, $3)', [korg.id, issue.id, blocker.id]);
        return issue;
      };
      const blockedSignal = async () =>
        ((await kget(x1.key)).body.signal_groups as any[]).find((g) => g.type === 'initiative_target_blocked' && g.metadata.initiative_target_id === target);
      // a projectless issue: x1 (project-scoped, reads A only) neither counts nor sees it
      await gated(null);
      expect(await blockedSignal()).toBeUndefined();
      // an issue of A blocked from B: counted; the blocker done (a write in B) releases it at once
      await gated(ka.id);
      expect((await blockedSignal())?.metadata.blocked_issues).toBe(1);
      await t.db.query(`UPDATE issues SET status = 'done' WHERE org_id = $1 AND id = $2`, [korg.id, blocker.id]);
      expect(await blockedSignal()).toBeUndefined();
    });

    it('an unchanged fresh heartbeat writes no paging state and keeps its next_cursor; a change starts a new run', async () => {
      const z = await newAgent(t, korg, { projectIds: [kb.id] });
      for (let i = 0; i < 30; i++) await notifyK(z.memberId, kb.id, `Zed ${String(i).padStart(2, '0')} ${'ж'.repeat(200)}`);
      const row = async () =>
        (
          await t.db.query(`SELECT xmin::text AS xmin, run_id, next_page FROM heartbeat_streams WHERE org_id = $1 AND member_id = $2`, [korg.id, z.memberId])
        )[0];
      const a = (await kget(z.key)).body;
      const c1 = a.page.next_cursor;
      expect(typeof c1).toBe('string');
      const r1 = await row();
      const b = await kget(z.key);
      expect(b.body.page.next_cursor).toBe(c1);
      expect(b.text).toBe(JSON.stringify(a));
      expect(await row()).toEqual(r1); // not rewritten
      // the cursor is still the next one in sequence
      expect((await kget(z.key, `cursor=${encodeURIComponent(c1)}`)).body.page.returned_count).toBeGreaterThan(0);
      expect((await row()).next_page).toBe(3);
      // a fresh heartbeat after a consumed page restarts the run (the same run, unchanged data): the stream moves back to page 2
      expect((await kget(z.key)).body.page.next_cursor).toBe(c1);
      expect(await row()).toEqual(expect.objectContaining({ run_id: r1.run_id, next_page: 2 }));
      // a change: a new run, the older cursor is stale
      await notifyK(z.memberId, kb.id, uniq('Zed new'));
      const c = (await kget(z.key)).body;
      expect(c.page.next_cursor).not.toBe(c1);
      expect((await row()).run_id).not.toBe(r1.run_id);
      expect((await kget(z.key, `cursor=${encodeURIComponent(c1)}`, 409)).body.code).toBe('heartbeat_cursor_stale');
    });

    it('byte budget edges: a page of exactly 16,384 bytes and of exactly max_bytes (multi-byte characters); one byte more does not fit', async () => {
      const BASE = 'Ünïcødé 🚀 ℵ';
      /** BASE and `n` more UTF-8 bytes, made of 4-, 3-, 2- and 1-byte characters (at most 1,000 characters: the column's limit). */
      const padded = (n: number) => {
        let out = BASE;
        let left = n;
        for (const [ch, size] of [
          ['🚀', 4],
          ['ℵ', 3],
          ['é', 2],
          ['a', 1],
        ] as const) {
          const times = size === 4 ? Math.floor(Math.max(0, left - 6) / 4) : Math.floor(left / size);
          out += ch.repeat(times);
          left -= times * size;
        }
        expect([...out].length).toBeLessThanOrEqual(1000);
        return out;
      };
      const CAPACITY = 3600; // bytes of padding one title takes
      for (const [max, records] of [
        [16384, 5],
        [3000, 1],
      ] as const) {
        const kc = await newProject(t, korg, uniq('Kept C'));
        const e = await newAgent(t, korg, { projectIds: [kc.id] });
        for (let i = 0; i < records; i++) await notifyK(e.memberId, kc.id, BASE);
        // page order: newest first
        const ids: string[] = (
          await t.db.query(`SELECT id FROM notifications WHERE org_id = $1 AND recipient_member_id = $2 ORDER BY created_at DESC, id DESC`, [
            korg.id,
            e.memberId,
          ])
        ).map((r: { id: string }) => r.id);
        const setTitle = (id: string, title: string) => t.db.query(`UPDATE notifications SET title = $3 WHERE org_id = $1 AND id = $2`, [korg.id, id, title]);
        const q = max === 16384 ? '' : `max_bytes=${max}`;
        const base = await kget(e.key, q);
        expect(base.body.attention_items).toHaveLength(records);
        expect(base.body.page.returned_bytes).toBe(bytes(base.text));
        // spread the room left over the records' titles (returned_bytes itself may take one more digit)
        const baseBytes = base.body.page.returned_bytes;
        let room = max - baseBytes - (String(max).length - String(baseBytes).length);
        expect(room).toBeGreaterThan(10);
        const pads = ids.map((_, i) => Math.floor(room / ids.length) + (i < room % ids.length ? 1 : 0));
        expect(Math.max(...pads)).toBeLessThanOrEqual(CAPACITY);
        room -= pads.reduce((x, y) => x + y, 0);
        expect(room).toBe(0);
        for (let i = 0; i < ids.length; i++) await setTitle(ids[i], padded(pads[i]));
        const exact = await kget(e.key, q);
        expect(bytes(exact.text)).toBe(max);
        expect(exact.body.page).toEqual(expect.objectContaining({ max_bytes: max, returned_bytes: max, returned_count: records, has_more: false }));
        // one byte more in the last record (an ASCII letter, then a 2-byte letter in place of it): it no longer fits
        const last = ids.length - 1;
        for (const extra of [`${padded(pads[last])}a`, `${padded(pads[last] - 1)}é`]) {
          await setTitle(ids[last], extra);
          if (records === 1) expect((await kget(e.key, q, 413)).body.code).toBe('heartbeat_budget_too_small');
          else {
            const over = await kget(e.key, q);
            expect(bytes(over.text)).toBeLessThanOrEqual(max);
            expect(over.body.page).toEqual(expect.objectContaining({ returned_count: records - 1, has_more: true, returned_bytes: bytes(over.text) }));
          }
        }
      }
    });
  });

  describe('per-agent policy', () => {
    let ag: { memberId: string; key: string; id: string };
    let path: string;
    let preview: string;
    const body = (p: Record<string, unknown> = {}) => ({ policy: p });

    beforeAll(async () => {
      ag = await newAgent(t, org, { projectIds: [pa.id, pb.id] });
      path = o(`/agents/${ag.id}/heartbeat-policy`);
      preview = o(`/agents/${ag.id}/heartbeat-preview`);
      const blocker = await insertIssue(t, org.id, pa.id, { status: 'in_progress', assigneeId: org.ownerMemberId, dueDate: dateIn(-3) });
      const blocked = await insertIssue(t, org.id, pa.id, { status: 'todo', assigneeId: ag.memberId, dueDate: dateIn(-1) });
      await dep(blocked.id, blocker.id);
      const issue = await insertIssue(t, org.id, pa.id, {});
      await t.db.query(
        `INSERT INTO notifications (org_id, recipient_member_id, event_type, severity, action_kind, issue_id, actor_type, title) VALUES ($1, $2, 'mention.created', 'warning', 'respond_to_comment', $3, 'human', 'ping')`,
        [org.id, ag.memberId, issue.id],
      );
    });

    it('agents get 403; humans who cannot manage the agent 404; unknown agent 404', async () => {
      await bearer(t, ag.key).get(path).expect(403);
      await bearer(t, admin.key).get(path).expect(403);
      await bearer(t, admin.key).put(path).send(body()).expect(403);
      await bearer(t, admin.key).delete(path).expect(403);
      await bearer(t, admin.key).post(preview).send({}).expect(403);
      await member.http.get(path).expect(404);
      await org.owner.http.get(o(`/agents/${randomUUID()}/heartbeat-policy`)).expect(404);
      await other.owner.http.get(`/api/orgs/${other.id}/agents/${ag.id}/heartbeat-policy`).expect(404);
    });

    it('GET: saved (none), effective defaults, selectable projects, columns and initiatives', async () => {
      const b = (await org.owner.http.get(path).expect(200)).body;
      expect(b.saved_policy).toBeNull();
      expect(b.effective_policy.sections).toEqual({
        goals: true,
        standalone_kpis: true,
        standalone_initiatives: true,
        assigned_issues: true,
        project_context: true,
        signals: true,
        attention: true,
      });
      expect(b.stale_selections).toEqual({ project_ids: [], initiative_ids: [], columns: [] });
      expect(b.selectable.projects.map((p: any) => p.id).sort()).toEqual([pa.id, pb.id].sort());
      expect(b.selectable.projects[0].board_columns).toHaveLength(4);
    });

    it('PUT replaces atomically; bad input 400; DELETE restores; disabled sections keep their shape', async () => {
      await org.owner.http
        .put(path)
        .send(body({ project_ids: [pa.id], signal_categories: { kpi: false } }))
        .expect(200);
      let b = (await org.owner.http.get(path).expect(200)).body;
      expect(b.saved_policy.project_ids).toEqual([pa.id]);
      expect(b.saved_policy.signal_categories.kpi).toBe(false);
      await org.owner.http
        .put(path)
        .send(body({ sections: { goals: false } }))
        .expect(200);
      b = (await org.owner.http.get(path).expect(200)).body;
      expect(b.saved_policy.project_ids).toEqual([]);
      expect(b.saved_policy.signal_categories.kpi).toBe(true);
      expect(b.saved_policy.sections.goals).toBe(false);
      const foreignProject = await newProject(t, other);
      for (const bad of [
        { policy: { sections: { goals: 'no' } } },
        { policy: { sections: { nope: true } } },
        { policy: { project_ids: ['x'] } },
        { policy: { project_ids: [foreignProject.id] } },
        { policy: { initiative_ids: [randomUUID()] } },
        { policy: { columns: [{ project_id: pa.id, column_id: randomUUID() }] } },
        { policy: { extra: 1 } },
        { sections: {} },
        { policy: 'all' },
      ]) {
        const r = await org.owner.http.put(path).send(bad).expect(400);
        expect(r.body.code).toBe('validation_failed');
      }
      // a project the agent cannot read is not selectable (focus grants no access)
      const pc = await newProject(t, org);
      await org.owner.http
        .put(path)
        .send(body({ project_ids: [pc.id] }))
        .expect(400);

      const before = await hb(ag.key);
      expect(before.attention_items.length).toBeGreaterThan(0);
      expect(before.signal_groups.length).toBeGreaterThan(0);
      await org.owner.http
        .put(path)
        .send(body({ sections: { attention: false, signals: false, goals: false, project_context: false } }))
        .expect(200);
      const c = await hb(ag.key);
      expect(c.attention_items).toEqual([]);
      expect(c.signal_groups).toEqual([]);
      expect(c.attention_summary.total).toBe(0);
      expect(Object.values(c.attention_summary.by_type).every((v) => v === 0)).toBe(true);
      const f = await hb(ag.key, 'view=full');
      for (const k of ['goals', 'project_context', 'signals', 'attention_items']) expect(f[k]).toEqual([]);
      expect(Array.isArray(f.assigned_issues)).toBe(true);
      await org.owner.http.delete(path).expect(200);
      expect((await org.owner.http.get(path).expect(200)).body.saved_policy).toBeNull();
      expect((await hb(ag.key)).attention_items.length).toBeGreaterThan(0);
    });

    it('focus: project B only hides project A task signals; column focus narrows task signals; stale ids fail closed', async () => {
      await org.owner.http
        .put(path)
        .send(body({ project_ids: [pb.id] }))
        .expect(200);
      expect((await hb(ag.key)).signal_groups.filter((g: any) => g.type === 'issue_blocked' && has(g, pa.id))).toEqual([]);
      const cols = (await org.owner.http.get(path).expect(200)).body.selectable.projects.find((p: any) => p.id === pa.id).board_columns;
      const todo = cols.find((c: any) => c.key === 'todo');
      const done = cols.find((c: any) => c.key === 'done');
      await org.owner.http
        .put(path)
        .send(body({ columns: [{ project_id: pa.id, column_id: todo.id }] }))
        .expect(200);
      expect((await hb(ag.key)).signal_groups.some((g: any) => g.type === 'issue_blocked')).toBe(true);
      await org.owner.http
        .put(path)
        .send(body({ columns: [{ project_id: pa.id, column_id: done.id }] }))
        .expect(200);
      expect((await hb(ag.key)).signal_groups.some((g: any) => g.type === 'issue_blocked')).toBe(false);
      // the agent loses project B: the saved focus keeps it (stale) and matches nothing
      await org.owner.http
        .put(path)
        .send(body({ project_ids: [pb.id] }))
        .expect(200);
      await t.db.query('DELETE FROM project_members WHERE org_id = $1 AND project_id = $2 AND member_id = $3', [org.id, pb.id, ag.memberId]);
      const g = (await org.owner.http.get(path).expect(200)).body;
      expect(g.saved_policy.project_ids).toEqual([pb.id]);
      expect(g.effective_policy.project_ids).toEqual([]);
      expect(g.stale_selections.project_ids).toEqual([pb.id]);
      expect((await hb(ag.key)).signal_groups).toEqual([]);
      expect((await org.owner.http.post(preview).send({}).expect(200)).body.heartbeat.signal_groups).toEqual([]);
      // saving the sanitized form removes the restriction
      await org.owner.http.put(path).send({ policy: g.effective_policy }).expect(200);
      expect((await hb(ag.key)).signal_groups.length).toBeGreaterThan(0);
      await org.owner.http.delete(path).expect(200);
    });

    it('preview composes as the agent with a draft, persists nothing, and validates the draft', async () => {
      const r = (
        await org.owner.http
          .post(preview)
          .send(body({ sections: { attention: false } }))
          .expect(200)
      ).body;
      expect(r.heartbeat.attention_items).toEqual([]);
      expect(r.heartbeat.page.next_cursor).toBeNull();
      expect((await org.owner.http.get(path).expect(200)).body.saved_policy).toBeNull();
      expect((await org.owner.http.post(preview).send({}).expect(200)).body.heartbeat.attention_items.length).toBeGreaterThan(0);
      await org.owner.http
        .post(preview)
        .send(body({ sections: { attention: 1 } }))
        .expect(400);
      const full = (await org.owner.http.post(`${preview}?view=full`).send({}).expect(200)).body.heartbeat;
      expect(full.agent.id).toBe(ag.memberId);
    });
  });

  describe('statements per recompute (issue 14: every agent recomposes after a write)', () => {
    it("compose sends one statement per own read: assigned work, attention (items, total and counts together), execution attention; owners/admins' failing webhooks", async () => {
      const composer = t.app.get(HeartbeatComposer);
      const access = t.app.get(AccessPolicyService);
      const sql = t.app.get(Sql);
      const member = await newAgent(t, org, { role: 'member' });
      const sent: string[] = [];
      const send = (sql as any).send.bind(sql);
      const spy = jest.spyOn(sql as any, 'send').mockImplementation((...a: any[]) => {
        sent.push(String(a[0].text));
        return send(...a);
      });
      const actorOf = async (memberId: string) => {
        const [row] = await t.db.query('SELECT id, type, role, display_name, agent_scope, owner_member_id FROM members WHERE org_id = $1 AND id = $2', [
          org.id,
          memberId,
        ]);
        return actorForMember(org.id, row);
      };
      try {
        for (const [who, attention, expected] of [
          [admin, true, 4],
          [guest, true, 3],
          [member, true, 3],
          [member, false, 2],
        ] as const) {
          const issue = await insertIssue(t, org.id, pa.id, { status: 'in_progress', assigneeId: who.memberId });
          await t.db.query(
            `INSERT INTO notifications (org_id, recipient_member_id, event_type, severity, action_kind, issue_id, actor_type, title) VALUES ($1, $2, 'issue.assigned', 'info', 'start_work', $3, 'human', 'hb')`,
            [org.id, who.memberId, issue.id],
          );
          // the request decides the visibility (HeartbeatService); compose gets a fresh actor (nothing of its access read yet)
          const decided = await actorOf(who.memberId);
          const readable = await access.readableProjects(decided);
          const v = { readable: readable === 'all' ? null : [...readable].sort(), projectless: (await access.issueLevel(decided, null)) !== null };
          const ctx = await composer.context(org.id, v, false);
          const policy = defaultPolicy();
          policy.sections.attention = attention;
          sent.length = 0;
          const caller = await actorOf(who.memberId);
          const b = composer.compose(caller, policy, false, v, ctx, await composer.own(caller, policy, v, { offTrack: () => Promise.resolve([]) }));
          expect([who.memberId, attention, sent.length]).toEqual([who.memberId, attention, expected]);
          expect(sent.filter((q) => /\bnotifications\b/.test(q))).toHaveLength(attention ? 1 : 0);
          if (attention) {
            expect(b.attentionTotal).toBeGreaterThan(0);
            expect(b.summary.total).toBe(b.attentionTotal);
            expect(b.attention.map((n) => n.issue_id)).toContain(issue.id);
          }
        }
      } finally {
        spy.mockRestore();
      }
    });
  });
});
