import { newOrg, newProject, type TestOrg, uniq } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import { insertIssue } from '../support/issues';

/**
 * The foreign keys that once cleared a column on delete (`ON DELETE SET NULL (col)`) are NO ACTION
 * now (docs/CITUS.md): the deleting commands clear the references themselves, in their
 * transaction. Every reference below outlives the deleted row and must end up NULL; with a missed
 * reference the foreign key refuses the delete (500).
 */
describe('deleting commands clear the references to what they delete', () => {
  let t: TestApp;
  let org: TestOrg;
  const api = (p: string) => `/api/orgs/${org.id}${p}`;
  const one = async (sql: string, params: unknown[]): Promise<Record<string, unknown>> => (await t.db.query(sql, params))[0];

  beforeAll(async () => {
    t = await startTestApp();
    org = await newOrg(t);
  });
  afterAll(() => t?.close());

  async function comment(issueId: string, replyTo: string | null = null): Promise<string> {
    const [r] = await t.db.query(
      `INSERT INTO comments (org_id, issue_id, author_type, author_member_id, body, reply_to_comment_id) VALUES ($1, $2, 'member', $3, $4, $5) RETURNING id`,
      [org.id, issueId, org.ownerMemberId, uniq('c'), replyTo],
    );
    return r.id;
  }
  const kpi = async (projectId: string | null, goalId: string | null): Promise<string> =>
    (await t.db.query('INSERT INTO kpis (org_id, name, project_id, goal_id) VALUES ($1, $2, $3, $4) RETURNING id', [org.id, uniq('k'), projectId, goalId]))[0]
      .id;
  const snapshot = async (kpiId: string, issueId: string | null, initiativeId: string | null): Promise<string> =>
    (
      await t.db.query(
        `INSERT INTO kpi_snapshots (org_id, kpi_id, value, source, attributed_to_issue_id, attributed_to_initiative_id) VALUES ($1, $2, 1, 'manual', $3, $4) RETURNING id`,
        [org.id, kpiId, issueId, initiativeId],
      )
    )[0].id;

  it('deleting a project clears goals, KPIs, initiatives, milestones, sub-tasks, recurrence sources, release columns, attributions and replies outside it', async () => {
    const p = await newProject(t, org);
    const q = await newProject(t, org);
    const [{ id: milestoneId }] = await t.db.query('INSERT INTO milestones (org_id, project_id, name) VALUES ($1, $2, $3) RETURNING id', [
      org.id,
      p.id,
      uniq('m'),
    ]);
    const [{ id: columnId }] = await t.db.query('SELECT id FROM board_columns WHERE org_id = $1 AND project_id = $2 LIMIT 1', [org.id, p.id]);
    const a = await insertIssue(t, org.id, p.id, { milestoneId });
    const inP = await insertIssue(t, org.id, p.id, { parentId: a.id }); // goes with the project
    const b = await insertIssue(t, org.id, q.id, { milestoneId, parentId: a.id });
    const b2 = await insertIssue(t, org.id, q.id);
    await t.db.query('UPDATE issues SET recurrence_source_id = $3 WHERE org_id = $1 AND id = $2', [org.id, b2.id, a.id]);
    const [{ id: depId }] = await t.db.query(
      'INSERT INTO issue_dependencies (org_id, blocking_issue_id, blocked_issue_id, release_column_id) VALUES ($1, $2, $3, $4) RETURNING id',
      [org.id, b.id, b2.id, columnId],
    );
    const [{ id: goalId }] = await t.db.query('INSERT INTO goals (org_id, title, project_id) VALUES ($1, $2, $3) RETURNING id', [org.id, uniq('g'), p.id]);
    const kpiId = await kpi(p.id, null);
    const [{ id: initiativeId }] = await t.db.query('INSERT INTO initiatives (org_id, title, name, project_id) VALUES ($1, $2, $2, $3) RETURNING id', [
      org.id,
      uniq('i'),
      p.id,
    ]);
    const snapId = await snapshot(kpiId, a.id, null);
    const onA = await comment(a.id);
    await comment(a.id, onA); // same issue: goes with it
    const reply = await comment(b.id, onA);

    await org.owner.http
      .delete(api(`/projects/${p.id}`))
      .send({ confirmation: 'DELETE' })
      .expect(200);

    expect(await t.db.query('SELECT id FROM issues WHERE org_id = $1 AND id = ANY($2)', [org.id, [a.id, inP.id]])).toEqual([]);
    expect(await one('SELECT milestone_id, parent_id FROM issues WHERE org_id = $1 AND id = $2', [org.id, b.id])).toEqual({
      milestone_id: null,
      parent_id: null,
    });
    expect(await one('SELECT recurrence_source_id FROM issues WHERE org_id = $1 AND id = $2', [org.id, b2.id])).toEqual({ recurrence_source_id: null });
    expect(await one('SELECT release_column_id FROM issue_dependencies WHERE org_id = $1 AND id = $2', [org.id, depId])).toEqual({ release_column_id: null });
    expect(await one('SELECT project_id FROM goals WHERE org_id = $1 AND id = $2', [org.id, goalId])).toEqual({ project_id: null });
    expect(await one('SELECT project_id FROM kpis WHERE org_id = $1 AND id = $2', [org.id, kpiId])).toEqual({ project_id: null });
    expect(await one('SELECT project_id FROM initiatives WHERE org_id = $1 AND id = $2', [org.id, initiativeId])).toEqual({ project_id: null });
    expect(await one('SELECT attributed_to_issue_id FROM kpi_snapshots WHERE org_id = $1 AND id = $2', [org.id, snapId])).toEqual({
      attributed_to_issue_id: null,
    });
    expect(await one('SELECT reply_to_comment_id FROM comments WHERE org_id = $1 AND id = $2', [org.id, reply])).toEqual({ reply_to_comment_id: null });
  });

  it('deleting an issue clears its sub-tasks, recurrence copies, KPI attributions and replies on other issues', async () => {
    const p = await newProject(t, org);
    const a = await insertIssue(t, org.id, p.id);
    const child = await insertIssue(t, org.id, p.id, { parentId: a.id });
    const copy = await insertIssue(t, org.id, p.id);
    await t.db.query('UPDATE issues SET recurrence_source_id = $3 WHERE org_id = $1 AND id = $2', [org.id, copy.id, a.id]);
    const snapId = await snapshot(await kpi(null, null), a.id, null);
    const onA = await comment(a.id);
    const reply = await comment(child.id, onA);

    await org.owner.http.delete(api(`/issues/${a.id}`)).expect(200);

    expect(await one('SELECT parent_id FROM issues WHERE org_id = $1 AND id = $2', [org.id, child.id])).toEqual({ parent_id: null });
    expect(await one('SELECT recurrence_source_id FROM issues WHERE org_id = $1 AND id = $2', [org.id, copy.id])).toEqual({ recurrence_source_id: null });
    expect(await one('SELECT attributed_to_issue_id FROM kpi_snapshots WHERE org_id = $1 AND id = $2', [org.id, snapId])).toEqual({
      attributed_to_issue_id: null,
    });
    expect(await one('SELECT reply_to_comment_id FROM comments WHERE org_id = $1 AND id = $2', [org.id, reply])).toEqual({ reply_to_comment_id: null });
  });

  it('deleting a goal, an initiative, a milestone, a team or a board column clears what points at it', async () => {
    const p = await newProject(t, org);
    const [{ id: goalId }] = await t.db.query('INSERT INTO goals (org_id, title) VALUES ($1, $2) RETURNING id', [org.id, uniq('g')]);
    const kpiId = await kpi(null, goalId);
    const [{ id: initiativeId }] = await t.db.query('INSERT INTO initiatives (org_id, title, name, goal_id) VALUES ($1, $2, $2, $3) RETURNING id', [
      org.id,
      uniq('i'),
      goalId,
    ]);
    const snapId = await snapshot(kpiId, null, initiativeId);
    await org.owner.http.delete(api(`/goals/${goalId}`)).expect(200);
    expect(await one('SELECT goal_id FROM kpis WHERE org_id = $1 AND id = $2', [org.id, kpiId])).toEqual({ goal_id: null });
    expect(await one('SELECT goal_id FROM initiatives WHERE org_id = $1 AND id = $2', [org.id, initiativeId])).toEqual({ goal_id: null });
    await org.owner.http.delete(api(`/initiatives/${initiativeId}`)).expect(200);
    expect(await one('SELECT attributed_to_initiative_id FROM kpi_snapshots WHERE org_id = $1 AND id = $2', [org.id, snapId])).toEqual({
      attributed_to_initiative_id: null,
    });

    const [{ id: milestoneId }] = await t.db.query('INSERT INTO milestones (org_id, project_id, name) VALUES ($1, $2, $3) RETURNING id', [
      org.id,
      p.id,
      uniq('m'),
    ]);
    const team = (
      await org.owner.http
        .post(api('/teams'))
        .send({ name: uniq('team') })
        .expect(201)
    ).body.team;
    const i = await insertIssue(t, org.id, p.id, { milestoneId, teamId: team.id });
    await org.owner.http.delete(api(`/milestones/${milestoneId}`)).expect(200);
    await org.owner.http.delete(api(`/teams/${team.id}`)).expect(200);
    expect(await one('SELECT milestone_id, team_id FROM issues WHERE org_id = $1 AND id = $2', [org.id, i.id])).toEqual({ milestone_id: null, team_id: null });

    const key = `k${Date.now().toString(36)}`;
    const columnId = (
      await org.owner.http
        .post(api(`/projects/${p.id}/board-columns`))
        .send({ key, label: uniq('Col') })
        .expect(201)
    ).body.column.id;
    const i2 = await insertIssue(t, org.id, p.id);
    const [{ id: depId }] = await t.db.query(
      'INSERT INTO issue_dependencies (org_id, blocking_issue_id, blocked_issue_id, release_column_id) VALUES ($1, $2, $3, $4) RETURNING id',
      [org.id, i.id, i2.id, columnId],
    );
    await org.owner.http.delete(api(`/projects/${p.id}/board-columns/${columnId}`)).expect(200);
    expect(await one('SELECT release_column_id FROM issue_dependencies WHERE org_id = $1 AND id = $2', [org.id, depId])).toEqual({ release_column_id: null });
  });
});
