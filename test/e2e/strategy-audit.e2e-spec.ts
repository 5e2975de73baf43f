import { randomUUID } from 'node:crypto';
import { addMember, newOrg, newProject, newUser, type TestOrg, type TestUser, uniq } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import { grant, insertIssue } from '../support/issues';

/**
 * The strategy audit: one situation per finding type in one organization, the active-context
 * rules, sorting, the severity filter and who may read it.
 */
describe('strategy audit', () => {
  let t: TestApp;
  let org: TestOrg;
  let member: TestUser;
  let guest: TestUser;
  let proj: { id: string };
  let archivedProj: { id: string };
  let otherProj: { id: string };
  const o = (p: string) => `/api/orgs/${org.id}${p}`;
  const S: Record<string, string> = {};
  let audit: any;
  const has = (type: string, key: string, id: string, a = audit) => a.findings.some((f: any) => f.type === type && f[key] === id);
  const q = (sql: string, params: unknown[]) => t.db.query(sql, [org.id, ...params]);
  const goal = async (status = 'active', targetDate: string | null = null) => {
    const id = randomUUID();
    await q('INSERT INTO goals (org_id, id, title, status, target_date) VALUES ($1, $2, $3, $4, $5)', [id, uniq('goal'), status, targetDate]);
    return id;
  };
  const kpi = async (
    f: {
      goalId?: string | null;
      target?: number | null;
      baseline?: number | null;
      stale?: number | null;
      createdDaysAgo?: number;
      direction?: string;
      targetDate?: string | null;
    } = {},
  ) => {
    const id = randomUUID();
    await q(
      `INSERT INTO kpis (org_id, id, goal_id, name, target_value, baseline_value, stale_after_hours, target_direction, target_date, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now() - make_interval(days => $10))`,
      [
        id,
        f.goalId ?? null,
        uniq('kpi'),
        f.target === undefined ? 100 : f.target,
        f.baseline ?? null,
        f.stale ?? null,
        f.direction ?? 'increase',
        f.targetDate ?? null,
        f.createdDaysAgo ?? 0,
      ],
    );
    return id;
  };
  const snap = async (kpiId: string, value: number, daysAgo: number) => {
    await q(`INSERT INTO kpi_snapshots (org_id, kpi_id, value, source, created_at) VALUES ($1, $2, $3, 'manual', now() - make_interval(days => $4))`, [
      kpiId,
      value,
      daysAgo,
    ]);
    await q(`UPDATE kpis SET current_value = $3, last_recorded_at = now() - make_interval(days => $4) WHERE org_id = $1 AND id = $2`, [kpiId, value, daysAgo]);
  };
  const initiative = async (f: { goalId?: string | null; projectId?: string | null; status?: string; targetDate?: string | null } = {}) => {
    const id = randomUUID();
    const title = uniq('ini');
    await q('INSERT INTO initiatives (org_id, id, title, name, goal_id, project_id, status, target_date) VALUES ($1, $2, $3, $3, $4, $5, $6, $7)', [
      id,
      title,
      f.goalId ?? null,
      f.projectId ?? null,
      f.status ?? 'active',
      f.targetDate ?? null,
    ]);
    return id;
  };
  const linkIssue = (ini: string, issue: string) => q('INSERT INTO initiative_issues (org_id, initiative_id, issue_id) VALUES ($1, $2, $3)', [ini, issue]);
  const linkProject = (ini: string, p: string) => q('INSERT INTO initiative_projects (org_id, initiative_id, project_id) VALUES ($1, $2, $3)', [ini, p]);
  const impact = (ini: string, k: string) => q('INSERT INTO initiative_kpi_impacts (org_id, initiative_id, kpi_id) VALUES ($1, $2, $3)', [ini, k]);
  const milestone = async (projectId: string, targetDate: string | null, status = 'active') => {
    const id = randomUUID();
    await q('INSERT INTO milestones (org_id, id, project_id, name, target_date, status) VALUES ($1, $2, $3, $4, $5, $6)', [
      id,
      projectId,
      uniq('ms'),
      targetDate,
      status,
    ]);
    return id;
  };
  const linkMilestone = (ini: string, m: string) => q('INSERT INTO initiative_milestones (org_id, initiative_id, milestone_id) VALUES ($1, $2, $3)', [ini, m]);
  const target = async (ini: string, f: { targetDate?: string | null; current?: number; needed?: number } = {}) => {
    const id = randomUUID();
    await q(
      `INSERT INTO initiative_targets (org_id, id, initiative_id, title, mode, current_value, target_value, target_date) VALUES ($1, $2, $3, $4, 'gate', $5, $6, $7)`,
      [id, ini, uniq('target'), f.current ?? 0, f.needed ?? 3, f.targetDate ?? null],
    );
    return id;
  };
  const block = async (blocked: string, blocker: string) =>
    q('INSERT INTO issue_dependencies (org_id, id, blocking_issue_id, blocked_issue_id) VALUES ($1, $2, $3, $4)', [randomUUID(), blocker, blocked]);

  beforeAll(async () => {
    t = await startTestApp();
    org = await newOrg(t);
    member = await newUser(t, 'member');
    guest = await newUser(t, 'guest');
    await addMember(t, org, member, 'member');
    const guestId = await addMember(t, org, guest, 'guest');
    proj = await newProject(t, org);
    archivedProj = await newProject(t, org);
    otherProj = await newProject(t, org);
    await grant(org, proj.id, guestId, 'view');

    // a healthy chain: goal -> KPI (recorded, on pace) -> initiative (impact, fresh linked work)
    S.okGoal = await goal('active', '2099-12-31');
    S.okKpi = await kpi({ goalId: S.okGoal, target: 100, baseline: 0 });
    await snap(S.okKpi, 1, 0);
    S.okIni = await initiative({ goalId: S.okGoal, projectId: proj.id });
    await impact(S.okIni, S.okKpi);
    S.okIssue = (await insertIssue(t, org.id, proj.id, { status: 'in_progress' })).id;
    await linkIssue(S.okIni, S.okIssue);

    // structural
    S.lonelyGoal = await goal();
    S.pausedGoal = await goal('paused');
    S.cancelledGoal = await goal('cancelled');
    S.orphanIni = await initiative({ projectId: proj.id });
    S.orphanKpi = await kpi();
    S.archivedProjIni = await initiative({ goalId: S.okGoal });
    await linkProject(S.archivedProjIni, archivedProj.id);
    const archivedIssue = (await insertIssue(t, org.id, proj.id, { archived: true })).id;
    S.archivedIssue = archivedIssue;
    await linkIssue(S.archivedProjIni, archivedIssue);
    S.strayMilestone = await milestone(otherProj.id, null);
    await linkMilestone(S.archivedProjIni, S.strayMilestone);

    // KPI health
    S.unrecorded = await kpi({ goalId: S.okGoal });
    S.noTarget = await kpi({ goalId: S.okGoal, target: null });
    S.stale = await kpi({ goalId: S.okGoal, stale: 24 });
    await snap(S.stale, 1, 3);
    S.offPace = await kpi({
      goalId: S.okGoal,
      target: 100,
      baseline: 0,
      createdDaysAgo: 50,
      targetDate: new Date(Date.now() + 50 * 86_400_000).toISOString().slice(0, 10),
    });
    await snap(S.offPace, 5, 0); // the line expects about 50
    S.wrongWay = await kpi({ goalId: S.okGoal, target: 1000, targetDate: '2099-01-01' });
    for (const [v, d] of [
      [30, 2],
      [20, 1],
      [10, 0],
    ])
      await snap(S.wrongWay, v, d);
    S.pausedGoalKpi = await kpi({ goalId: S.pausedGoal });

    // initiative health
    S.noImpactIni = await initiative({ goalId: S.okGoal, projectId: proj.id });
    S.noWorkIni = await initiative({ goalId: S.okGoal, projectId: proj.id });
    S.stalledIni = await initiative({ goalId: S.okGoal, projectId: proj.id });
    const old = await insertIssue(t, org.id, proj.id, { status: 'todo', createdAt: new Date(Date.now() - 30 * 86_400_000).toISOString() });
    await linkIssue(S.stalledIni, old.id);
    S.pausedIni = await initiative({ goalId: S.okGoal, projectId: proj.id, status: 'paused' });
    S.overdueTargetIni = await initiative({ goalId: S.okGoal, projectId: proj.id });
    S.overdueTarget = await target(S.overdueTargetIni, { targetDate: '2020-01-01' });
    S.blockedTarget = await target(S.overdueTargetIni, { targetDate: '2099-01-01' });
    const tBlocker = (await insertIssue(t, org.id, proj.id, { status: 'todo' })).id;
    const tBlocked = (await insertIssue(t, org.id, proj.id, { status: 'todo' })).id;
    await block(tBlocked, tBlocker);
    await q('INSERT INTO initiative_target_issues (org_id, target_id, issue_id) VALUES ($1, $2, $3)', [S.blockedTarget, tBlocked]);
    await q('INSERT INTO initiative_target_issues (org_id, target_id, issue_id) VALUES ($1, $2, $3)', [S.overdueTarget, tBlocker]);
    S.emptyTarget = await target(S.overdueTargetIni, {});
    S.metTarget = await target(S.overdueTargetIni, { current: 3, needed: 3, targetDate: '2020-01-01' });

    // execution
    S.overdueIssue = (await insertIssue(t, org.id, proj.id, { status: 'todo', dueDate: '2020-01-15' })).id;
    S.blocker = (await insertIssue(t, org.id, proj.id, { status: 'in_progress' })).id;
    S.blockedIssue = (await insertIssue(t, org.id, proj.id, { status: 'todo' })).id;
    await block(S.blockedIssue, S.blocker);
    S.doneOverdue = (await insertIssue(t, org.id, proj.id, { status: 'done', dueDate: '2020-01-15' })).id;
    for (const i of [S.overdueIssue, S.blocker, S.blockedIssue, S.doneOverdue]) await linkIssue(S.okIni, i);
    S.lateMilestone = await milestone(proj.id, '2020-03-01');
    S.doneMilestone = await milestone(proj.id, '2020-03-01', 'completed');
    await linkMilestone(S.okIni, S.lateMilestone);
    await linkMilestone(S.okIni, S.doneMilestone);
    // work of a paused initiative is not audited
    S.pausedWork = (await insertIssue(t, org.id, proj.id, { status: 'todo', dueDate: '2020-01-15' })).id;
    await linkIssue(S.pausedIni, S.pausedWork);

    await t.db.query(`UPDATE projects SET status = 'archived' WHERE org_id = $1 AND id = $2`, [org.id, archivedProj.id]);
    audit = (await org.owner.http.get(o('/strategy/audit')).expect(200)).body;
  });
  afterAll(() => t.close());

  it('has the documented shape, sorted critical, warning, info', () => {
    expect(audit).toEqual({ findings: expect.any(Array), summary: expect.any(Object), counts_by_type: expect.any(Object) });
    const rank: Record<string, number> = { critical: 0, warning: 1, info: 2 };
    const sev = audit.findings.map((f: any) => rank[f.severity]);
    expect(sev).toEqual([...sev].sort((a, b) => a - b));
    for (const f of audit.findings) {
      expect(f).toMatchObject({ type: expect.any(String), title: expect.any(String), message: expect.any(String), suggested_fix: expect.any(String) });
    }
    const bySev = (s: string) => audit.findings.filter((f: any) => f.severity === s).length;
    expect(audit.summary).toMatchObject({
      total: audit.findings.length,
      critical: bySev('critical'),
      warning: bySev('warning'),
      info: bySev('info'),
      text: expect.any(String),
    });
    expect(Object.values(audit.counts_by_type).reduce((a: number, b: any) => a + b, 0)).toBe(audit.findings.length);
    expect(Object.keys(audit.counts_by_type)).toHaveLength(20);
  });

  it('a healthy chain produces no finding', () => {
    for (const [k, id] of [
      ['goal_id', S.okGoal],
      ['kpi_id', S.okKpi],
      ['issue_id', S.okIssue],
    ]) {
      expect(
        audit.findings.filter((f: any) => f[k] === id && !['issue_blocked', 'issue_overdue', 'milestone_overdue'].includes(f.type) && !(k === 'goal_id')),
      ).toEqual([]);
    }
    expect(audit.findings.filter((f: any) => f.initiative_id === S.okIni && f.type.startsWith('initiative_'))).toEqual([]);
  });

  it.each([
    ['goal_missing_kpi', 'goal_id', 'lonelyGoal'],
    ['goal_missing_initiative', 'goal_id', 'lonelyGoal'],
    ['initiative_orphaned', 'initiative_id', 'orphanIni'],
    ['kpi_orphaned', 'kpi_id', 'orphanKpi'],
    ['dangling_initiative_project', 'project_id', 'archivedProj'],
    ['dangling_initiative_issue', 'issue_id', 'archivedIssue'],
    ['dangling_initiative_milestone', 'milestone_id', 'strayMilestone'],
    ['kpi_unrecorded', 'kpi_id', 'unrecorded'],
    ['kpi_missing_target', 'kpi_id', 'noTarget'],
    ['kpi_stale', 'kpi_id', 'stale'],
    ['kpi_off_pace', 'kpi_id', 'offPace'],
    ['kpi_off_pace', 'kpi_id', 'wrongWay'],
    ['initiative_missing_impact', 'initiative_id', 'noImpactIni'],
    ['initiative_missing_execution', 'initiative_id', 'noWorkIni'],
    ['initiative_stalled', 'initiative_id', 'stalledIni'],
    ['initiative_target_missing_execution', 'initiative_target_id', 'emptyTarget'],
    ['initiative_target_overdue', 'initiative_target_id', 'overdueTarget'],
    ['initiative_target_blocked', 'initiative_target_id', 'blockedTarget'],
    ['issue_blocked', 'issue_id', 'blockedIssue'],
    ['issue_overdue', 'issue_id', 'overdueIssue'],
    ['milestone_overdue', 'milestone_id', 'lateMilestone'],
  ])('reports %s (%s of %s)', (type, key, name) => {
    const id = name === 'archivedProj' ? archivedProj.id : S[name];
    expect(has(type, key, id)).toBe(true);
  });

  it('leaves out what is fine or inactive', () => {
    expect(has('goal_missing_kpi', 'goal_id', S.okGoal)).toBe(false);
    expect(has('kpi_off_pace', 'kpi_id', S.okKpi)).toBe(false);
    expect(has('kpi_stale', 'kpi_id', S.okKpi)).toBe(false);
    expect(has('issue_overdue', 'issue_id', S.doneOverdue)).toBe(false);
    expect(has('issue_blocked', 'issue_id', S.blocker)).toBe(false);
    expect(has('milestone_overdue', 'milestone_id', S.doneMilestone)).toBe(false);
    expect(has('initiative_target_overdue', 'initiative_target_id', S.metTarget)).toBe(false);
    // paused and cancelled goals: no goal checks; KPIs of inactive goals: no KPI health
    expect(audit.findings.some((f: any) => f.goal_id === S.pausedGoal || f.goal_id === S.cancelledGoal)).toBe(false);
    expect(audit.findings.some((f: any) => f.kpi_id === S.pausedGoalKpi)).toBe(false);
    // paused initiatives: no initiative health, their work is not audited
    expect(audit.findings.some((f: any) => f.initiative_id === S.pausedIni)).toBe(false);
    expect(has('issue_overdue', 'issue_id', S.pausedWork)).toBe(false);
  });

  it('?severity= keeps one severity; anything else is 400', async () => {
    const r = await org.owner.http.get(o('/strategy/audit?severity=critical')).expect(200);
    expect(r.body.findings.length).toBeGreaterThan(0);
    expect(r.body.findings.every((f: any) => f.severity === 'critical')).toBe(true);
    expect(r.body.summary.total).toBe(r.body.findings.length);
    await org.owner.http.get(o('/strategy/audit?severity=urgent')).expect(400);
    await org.owner.http.get(o('/strategy/audit?severity=critical&severity=info')).expect(400);
  });

  it('access: members read it, guests 403, others 401/404', async () => {
    const m = await member.http.get(o('/strategy/audit')).expect(200);
    expect(m.body.summary.total).toBe(audit.summary.total); // members read every project
    await guest.http.get(o('/strategy/audit')).expect(403);
    await t.http().get(o('/strategy/audit')).expect(401);
    const stranger = await newOrg(t);
    await stranger.owner.http.get(o('/strategy/audit')).expect(404);
    // an empty organization audits clean
    const clean = await stranger.owner.http.get(`/api/orgs/${stranger.id}/strategy/audit`).expect(200);
    expect(clean.body.findings).toEqual([]);
    expect(clean.body.summary.total).toBe(0);
  });
});
