import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { Clock } from '../../src/common/clock/clock';
import { HeartbeatComposer } from '../../src/modules/heartbeat/heartbeat-composer.service';
import type { Visibility } from '../../src/modules/heartbeat/heartbeat.repository';
import { bearer, newAgent, newOrg, newProject, type TestOrg, uniq } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import { insertIssue } from '../support/issues';

/**
 * The heartbeat's organization-wide work (read model heartbeat-work: initiatives with every linked
 * issue, unsatisfied dependencies) against each visibility's own statements: every visibility and
 * both views derive exactly what the per-visibility statements read (counts over readable work
 * only, stall counts at the context's instant, the first linked issues, unreadable blockers).
 */
const DAY = 86_400_000;

describe('heartbeat: organization-wide work equals each visibility reading its own', () => {
  let t: TestApp;
  let org: TestOrg;
  let pa: { id: string };
  let pb: { id: string };
  let pc: { id: string };
  let wide: string;
  let linkedOpen: string;
  let dependent: string;
  let linkedMs: string;
  const now = new Date();
  const ago = (d: number) => new Date(now.getTime() - d * DAY).toISOString();

  beforeAll(async () => {
    t = await startTestApp();
    org = await newOrg(t);
    pa = await newProject(t, org, uniq('Work A'));
    pb = await newProject(t, org, uniq('Work B'));
    pc = await newProject(t, org, uniq('Work C'));
    const initiative = async (title: string, s: { projectId?: string; status?: string; projects?: string[] } = {}) => {
      const id = randomUUID();
      await t.db.query(`INSERT INTO initiatives (org_id, id, title, name, status, project_id) VALUES ($1, $2, $3, $3, $4, $5)`, [
        org.id,
        id,
        title,
        s.status ?? 'active',
        s.projectId ?? null,
      ]);
      for (const p of s.projects ?? [])
        await t.db.query('INSERT INTO initiative_projects (org_id, initiative_id, project_id) VALUES ($1, $2, $3)', [org.id, id, p]);
      return id;
    };
    const link = (ini: string, issue: string) =>
      t.db.query('INSERT INTO initiative_issues (org_id, initiative_id, issue_id) VALUES ($1, $2, $3)', [org.id, ini, issue]);
    const dep = (blocked: string, blocker: string) =>
      t.db.query('INSERT INTO issue_dependencies (org_id, blocked_issue_id, blocking_issue_id) VALUES ($1, $2, $3)', [org.id, blocked, blocker]);

    const shared = await initiative(uniq('Shared'));
    const ofA = await initiative(uniq('Of A'), { projectId: pa.id });
    wide = await initiative(uniq('Wide'), { projects: [pb.id, pc.id] });
    await initiative(uniq('Cancelled'), { status: 'cancelled' });
    await initiative(uniq('Empty'), { status: 'paused' });
    const statuses = ['backlog', 'todo', 'in_progress', 'done', 'cancelled'];
    const issues: Record<string, string[]> = { a: [], b: [], c: [], none: [] };
    for (let i = 0; i < 40; i++) {
      const key = (['a', 'b', 'c', 'none'] as const)[i % 4];
      const project = { a: pa.id, b: pb.id, c: pc.id, none: null }[key];
      const x = await insertIssue(t, org.id, project, {
        status: statuses[i % 5],
        priority: i % 4,
        archived: i % 13 === 7,
        // some open work unchanged for longer than the stall period (stalled), some recent
        createdAt: i % 3 === 0 ? ago(20 + i) : ago(i / 10),
        dueDate: i % 7 === 0 ? ago(2).slice(0, 10) : undefined,
      });
      issues[key].push(x.id);
      await link(wide, x.id);
      if (i % 2 === 0) await link(shared, x.id);
    }
    // an initiative linked through a milestone of B as well as directly
    const ms = (
      await org.owner.http
        .post(`/api/orgs/${org.id}/projects/${pb.id}/milestones`)
        .send({ name: uniq('Work ms'), target_date: ago(-10).slice(0, 10) })
        .expect(201)
    ).body.milestone;
    for (let i = 0; i < 3; i++) await insertIssue(t, org.id, pb.id, { status: 'todo', milestoneId: ms.id });
    await t.db.query('INSERT INTO initiative_milestones (org_id, initiative_id, milestone_id) VALUES ($1, $2, $3)', [org.id, ofA, ms.id]);
    await link(ofA, issues.a[0]);
    await link(ofA, issues.a[1]);
    // dependencies: within A, A waiting on B (a blocker some cannot read), projectless on A, a satisfied one
    await dep(issues.a[1], issues.a[2]);
    await dep(issues.a[3], issues.b[2]);
    await dep(issues.none[1], issues.a[2]);
    await dep(issues.b[1], issues.c[1]);
    await dep(issues.a[5], issues.a[3]);
    linkedOpen = issues.b[1];
    dependent = issues.none[1];
    linkedMs = ms.id;
  });
  afterAll(() => t.close());

  it.each([
    ['everything', () => ({ readable: null, projectless: true })],
    ['A and projectless work', () => ({ readable: [pa.id], projectless: true })],
    ['A only', () => ({ readable: [pa.id], projectless: false })],
    ['B and C', () => ({ readable: [pb.id, pc.id].sort(), projectless: false })],
    ['projectless work only', () => ({ readable: [], projectless: true })],
  ])('%s: the same initiatives (counts, stalls, linked issues) and dependencies in both views', async (_name, visibility) => {
    const v: Visibility = visibility();
    const composer = t.app.get(HeartbeatComposer);
    jest.spyOn(t.app.get(Clock), 'now').mockReturnValue(now);
    try {
      const work = await composer.work(org.id);
      expect(work.initiatives).not.toBeNull();
      expect(work.deps).not.toBeNull();
      for (const full of [false, true]) {
        const derived = await composer.context(org.id, v, full, { work: () => Promise.resolve(work) });
        const own = await composer.context(org.id, v, full);
        // the compact view shows no linked issues (its own statement reads them anyway)
        const ini = (xs: typeof own.initiatives) => (full ? xs : xs.map((n) => ({ ...n, linked: [] })));
        expect(ini(derived.initiatives)).toEqual(ini(own.initiatives));
        expect(derived.deps).toEqual(own.deps);
        expect(derived.deps.length + derived.initiatives.reduce((n, i) => n + i.total, 0)).toBeGreaterThan(0);
      }
    } finally {
      jest.restoreAllMocks();
    }
  });

  it("the work's own version moves for the issues the work shows, not for other issue writes", async () => {
    const version = async () =>
      Number((await t.db.query(`SELECT sum(version) AS v FROM data_versions WHERE org_id = $1 AND scope = 'heartbeat_work'`, [org.id]))[0].v);
    const issuesVersion = async () =>
      Number((await t.db.query(`SELECT sum(version) AS v FROM data_versions WHERE org_id = $1 AND scope = 'issues'`, [org.id]))[0].v);
    const v0 = await version();
    const plain = await insertIssue(t, org.id, pa.id, { status: 'todo' });
    const i0 = await issuesVersion();
    await t.db.query('UPDATE issues SET priority = 3, title = $3 WHERE org_id = $1 AND id = $2', [org.id, plain.id, uniq('plain')]);
    expect([await version(), await issuesVersion()]).toEqual([v0, i0 + 1]);
    const bumps = async (sql: string, params: unknown[]) => {
      const before = await version();
      await t.db.query(sql, params);
      return (await version()) - before;
    };
    // a linked issue, an end of a dependency, a move into and out of a linked milestone, a new link
    expect(await bumps('UPDATE issues SET priority = 0 WHERE org_id = $1 AND id = $2', [org.id, linkedOpen])).toBe(1);
    expect(await bumps('UPDATE issues SET title = $3 WHERE org_id = $1 AND id = $2', [org.id, dependent, uniq('dependent')])).toBe(1);
    const moved = await insertIssue(t, org.id, pb.id, { status: 'todo' });
    expect(await bumps('UPDATE issues SET milestone_id = $3 WHERE org_id = $1 AND id = $2', [org.id, moved.id, linkedMs])).toBe(1);
    expect(await bumps('UPDATE issues SET milestone_id = NULL WHERE org_id = $1 AND id = $2', [org.id, moved.id])).toBe(1);
    expect(await bumps('INSERT INTO initiative_issues (org_id, initiative_id, issue_id) VALUES ($1, $2, $3)', [org.id, wide, plain.id])).toBe(1);
    expect(await bumps('UPDATE issues SET priority = 1 WHERE org_id = $1 AND id = $2', [org.id, plain.id])).toBe(1);
    // deleting a linked issue (its links go with it)
    expect(await bumps('DELETE FROM issues WHERE org_id = $1 AND id = $2', [org.id, plain.id])).toBe(1);
  });

  it('a kept heartbeat follows a write to linked work (the work is recomputed at its new version)', async () => {
    const admin = await newAgent(t, org, { role: 'admin' });
    const completed = async () => {
      const body = (await bearer(t, admin.key).get(`/api/orgs/${org.id}/heartbeat?view=full`).expect(200)).body;
      return body.standalone_initiatives.find((n: any) => n.initiative.id === wide).completed_issues as number;
    };
    const before = await completed();
    expect(await completed()).toBe(before);
    await org.owner.http.patch(`/api/orgs/${org.id}/issues/${linkedOpen}`).send({ status: 'done' }).expect(200);
    expect(await completed()).toBe(before + 1);
  });
});
