import { randomUUID } from 'node:crypto';
import { addMember, newAgent, newOrg, newProject, newUser, randomId, type TestOrg, type TestUser, uniq } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import { grant, insertIssue } from '../support/issues';

/**
 * GET /analytics on a seeded timeline with known answers (range 2026-03-01..2026-03-05, UTC days),
 * within the caller's access, and its input rules.
 */
describe('analytics', () => {
  let t: TestApp;
  let org: TestOrg;
  let guest: TestUser;
  let member: TestUser;
  let projA: { id: string };
  let projB: { id: string };
  let agentMemberId: string;
  let teamId: string;
  const url = (q: string) => `/api/orgs/${org.id}/analytics?${q}`;
  const RANGE = 'from=2026-03-01&to=2026-03-05';

  /** A status move on the timeline, as the issue writer records it. */
  const move = (issueId: string, projectId: string | null, to: string, at: string) =>
    t.db.query(
      `INSERT INTO activity_events (org_id, id, issue_id, project_id, actor_member_id, action, metadata, created_at)
       VALUES ($1, $2, $3, $4, NULL, 'issue.updated', $5::jsonb, $6)`,
      [org.id, randomUUID(), issueId, projectId, JSON.stringify({ changed_fields: ['status'], to_status: to }), at],
    );
  const complete = (id: string, at: string) => t.db.query('UPDATE issues SET completed_at = $3 WHERE org_id = $1 AND id = $2', [org.id, id, at]);

  beforeAll(async () => {
    t = await startTestApp();
    org = await newOrg(t);
    guest = await newUser(t, 'guest');
    member = await newUser(t, 'member');
    const guestId = await addMember(t, org, guest, 'guest');
    await addMember(t, org, member, 'member');
    projA = await newProject(t, org);
    projB = await newProject(t, org);
    await grant(org, projA.id, guestId, 'view');
    agentMemberId = (await newAgent(t, org, {})).memberId;
    teamId = (
      await org.owner.http
        .post(`/api/orgs/${org.id}/teams`)
        .send({ name: uniq('Team') })
        .expect(201)
    ).body.team.id;

    // project A
    const i1 = await insertIssue(t, org.id, projA.id, { status: 'done', assigneeId: agentMemberId, createdAt: '2026-02-20T10:00:00Z' });
    await complete(i1.id, '2026-03-02T12:00:00Z');
    await move(i1.id, projA.id, 'in_progress', '2026-03-01T12:00:00Z');
    await insertIssue(t, org.id, projA.id, { status: 'in_progress', assigneeId: org.ownerMemberId, createdAt: '2026-03-01T08:00:00Z' });
    const i3 = await insertIssue(t, org.id, projA.id, { status: 'done', assigneeId: org.ownerMemberId, teamId, createdAt: '2026-03-02T09:00:00Z' });
    await complete(i3.id, '2026-03-04T09:00:00Z');
    await move(i3.id, projA.id, 'in_progress', '2026-03-03T09:00:00Z');
    await move(i3.id, projA.id, 'in_progress', '2026-03-03T20:00:00Z'); // a later move back does not restart the clock
    const i4 = await insertIssue(t, org.id, projA.id, { status: 'cancelled', createdAt: '2026-03-03T00:00:00Z', priority: 0 });
    await move(i4.id, projA.id, 'cancelled', '2026-03-04T10:00:00Z');
    const i5 = await insertIssue(t, org.id, projA.id, { status: 'done', createdAt: '2026-02-10T00:00:00Z' });
    await complete(i5.id, '2026-02-15T00:00:00Z');
    await insertIssue(t, org.id, projA.id, { status: 'todo', createdAt: '2026-03-06T00:00:00Z' }); // after the range
    // project B (not the guest's) and a projectless issue
    const i8 = await insertIssue(t, org.id, projB.id, { status: 'done', createdAt: '2026-03-02T00:00:00Z' });
    await complete(i8.id, '2026-03-03T00:00:00Z');
    await insertIssue(t, org.id, null, { status: 'todo', createdAt: '2026-03-01T12:00:00Z' });
  });
  afterAll(() => t.close());

  it('owners see every project and projectless work: the known daily figures, times and throughput', async () => {
    const b = (await org.owner.http.get(url(RANGE)).expect(200)).body;
    expect(b.range).toEqual({ from: '2026-03-01T00:00:00.000Z', to: '2026-03-06T00:00:00.000Z', time_zone: 'UTC' });
    expect(b.days).toEqual([
      { date: '2026-03-01', created: 2, completed: 0, cancelled: 0, open: 3 },
      { date: '2026-03-02', created: 2, completed: 1, cancelled: 0, open: 4 },
      { date: '2026-03-03', created: 1, completed: 1, cancelled: 0, open: 4 },
      { date: '2026-03-04', created: 0, completed: 1, cancelled: 1, open: 2 },
      { date: '2026-03-05', created: 0, completed: 0, cancelled: 0, open: 2 },
    ]);
    expect(b.totals).toEqual({ created: 5, completed: 3, cancelled: 1, open_at_start: 1, open_at_end: 2 });
    expect(b.cycle_time_hours).toEqual({ p50: 24, p90: 24, count: 2 });
    expect(b.lead_time_hours).toEqual({ p50: 48, p90: 203.2, count: 3 });
    expect(b.throughput).toEqual({ human: 1, agent: 1, unassigned: 1 });
    expect(b.throughput_by_assignee).toEqual(
      expect.arrayContaining([
        { assignee_id: agentMemberId, display_name: expect.any(String), type: 'agent', count: 1 },
        { assignee_id: org.ownerMemberId, display_name: expect.any(String), type: 'human', count: 1 },
        { assignee_id: null, display_name: null, type: null, count: 1 },
      ]),
    );
    expect(b.dailyCounts[1]).toEqual({ date: '2026-03-02', created: 2, completed: 1 });
    expect(b.statusDistribution).toEqual(
      expect.arrayContaining([
        { status: 'done', count: 4 },
        { status: 'todo', count: 1 },
        { status: 'in_progress', count: 1 },
        { status: 'cancelled', count: 1 },
      ]),
    );
    expect(b.priorityBreakdown).toEqual(expect.arrayContaining([{ priority: 0, count: 1 }]));
    expect(b.assigneeWorkload).toEqual(
      expect.arrayContaining([
        { assignee_id: org.ownerMemberId, display_name: expect.any(String), type: 'human', count: 1 },
        { assignee_id: null, display_name: null, type: null, count: 1 },
      ]),
    );
  });

  it('guests aggregate only their projects (no projectless work); an explicit unreadable project is 404', async () => {
    const b = (await guest.http.get(url(RANGE)).expect(200)).body;
    expect(b.days.map((d: any) => d.open)).toEqual([2, 2, 3, 1, 1]);
    expect(b.totals).toEqual({ created: 3, completed: 2, cancelled: 1, open_at_start: 1, open_at_end: 1 });
    expect(b.throughput).toEqual({ human: 1, agent: 1, unassigned: 0 });
    await guest.http.get(url(`${RANGE}&projectId=${projB.id}`)).expect(404);
    await guest.http.get(url(`${RANGE}&projectId=${randomId()}`)).expect(404);
    const onlyB = (await member.http.get(url(`${RANGE}&projectId=${projB.id}`)).expect(200)).body;
    expect(onlyB.totals).toEqual({ created: 1, completed: 1, cancelled: 0, open_at_start: 0, open_at_end: 0 });
    expect(onlyB.project_id).toBe(projB.id);
    const team = (await org.owner.http.get(url(`${RANGE}&teamId=${teamId}`)).expect(200)).body;
    expect(team.totals).toEqual({ created: 1, completed: 1, cancelled: 0, open_at_start: 0, open_at_end: 0 });
    await org.owner.http.get(url(`${RANGE}&teamId=${randomId()}`)).expect(404);
    const stranger = await newOrg(t);
    await stranger.owner.http.get(url(RANGE)).expect(404);
    expect((await stranger.owner.http.get(`/api/orgs/${stranger.id}/analytics?${RANGE}`).expect(200)).body.totals).toEqual({
      created: 0,
      completed: 0,
      cancelled: 0,
      open_at_start: 0,
      open_at_end: 0,
    });
  });

  it('a guest without any project gets empty aggregates', async () => {
    const lone = await newUser(t, 'lone');
    await addMember(t, org, lone, 'guest');
    const b = (await lone.http.get(url(RANGE)).expect(200)).body;
    expect(b.totals).toEqual({ created: 0, completed: 0, cancelled: 0, open_at_start: 0, open_at_end: 0 });
    expect(b.days).toHaveLength(5);
  });

  it('timestamps with offsets bound the range exactly; a kept result follows new status moves', async () => {
    const b = (await org.owner.http.get(url('from=2026-03-02T10:00:00%2B02:00&to=2026-03-03T12:00:00Z')).expect(200)).body;
    expect(b.range).toEqual({ from: '2026-03-02T08:00:00.000Z', to: '2026-03-03T12:00:00.000Z', time_zone: 'UTC' });
    // 03-02 08:00..: I3 (09:00) created; I1 completed 12:00; 03-03: I4 created 00:00, I8 completed 00:00
    expect(b.days.map((d: any) => [d.date, d.created, d.completed])).toEqual([
      ['2026-03-02', 1, 1],
      ['2026-03-03', 1, 1],
    ]);
    const before = (await org.owner.http.get(url(RANGE)).expect(200)).body.cycle_time_hours;
    const i = await insertIssue(t, org.id, projA.id, { status: 'done', createdAt: '2026-03-01T00:00:00Z' });
    await complete(i.id, '2026-03-05T00:00:00Z');
    const mid = (await org.owner.http.get(url(RANGE)).expect(200)).body.cycle_time_hours;
    expect(mid).toEqual(before); // no move yet: not measured
    await move(i.id, projA.id, 'in_progress', '2026-03-04T00:00:00Z'); // a timeline entry alone bumps the version
    const after = (await org.owner.http.get(url(RANGE)).expect(200)).body.cycle_time_hours;
    expect(after.count).toBe(before.count + 1);
  });

  it('bad input: 400 with the error shape', async () => {
    for (const q of [
      'to=2026-03-05',
      'from=2026-03-01',
      'from=2026-03&to=2026-03-05',
      'from=2026-03-01T10:00:00&to=2026-03-05',
      'from=2026-02-30&to=2026-03-05',
      'from=2026-03-01T24:00:00Z&to=2026-03-05',
      'from=2026-03-01T10:00Z&to=2026-03-05',
      'from=2026-03-05&to=2026-03-01',
      'from=2025-01-01&to=2026-01-02',
      'from=not-a-date&to=2026-03-05',
      `${RANGE}&projectId=nope`,
      `${RANGE}&teamId=nope`,
    ]) {
      const r = await org.owner.http.get(url(q));
      expect([q, r.status, typeof r.body.error, r.body.code]).toEqual([q, 400, 'string', 'validation_failed']);
    }
    // exactly 366 days (a leap year) is allowed; so is the reverse-free one-day range
    await org.owner.http.get(url('from=2024-01-01&to=2024-12-31')).expect(200);
    await org.owner.http.get(url('from=2025-01-01&to=2026-01-01')).expect(200);
    await org.owner.http.get(url('from=2026-03-01&to=2026-03-01')).expect(200);
  });
});
