import { addMember, bearer, newAgent, newOrg, newProject, newUser, randomId, type TestOrg, type TestUser } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import { insertWebhookRow } from '../support/webhooks';

/**
 * Project status updates and project health: read with project access, post with edit/admin;
 * each update is an organization-feed entry and a `project.status_updated` webhook event.
 */
describe('project status updates and health', () => {
  let t: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  let member: TestUser;
  let guest: TestUser;
  let outsider: TestUser;
  let memberId: string;
  let projA: { id: string; key: string; name: string };
  let projB: { id: string; key: string; name: string };
  let viewer: ReturnType<typeof bearer>;
  const updates = (p: string) => `/api/orgs/${org.id}/projects/${p}/status-updates`;
  const health = () => `/api/orgs/${org.id}/project-health`;

  beforeAll(async () => {
    t = await startTestApp();
    org = await newOrg(t);
    other = await newOrg(t);
    member = await newUser(t, 'member');
    guest = await newUser(t, 'guest');
    outsider = await newUser(t, 'outsider');
    memberId = await addMember(t, org, member, 'member');
    const guestId = await addMember(t, org, guest, 'guest');
    await addMember(t, org, outsider, 'guest'); // a guest of no project
    projA = await newProject(t, org, 'Alpha');
    projB = await newProject(t, org, 'Beta');
    await org.owner.http.post(`/api/orgs/${org.id}/projects/${projA.id}/members`).send({ memberId, accessLevel: 'edit' }).expect(201);
    await org.owner.http.post(`/api/orgs/${org.id}/projects/${projA.id}/members`).send({ memberId: guestId, accessLevel: 'view' }).expect(201);
    viewer = bearer(t, (await newAgent(t, org, { projectIds: [projA.id] })).key);
  });
  afterAll(() => t.close());

  it('POST: 201 { status_update } with sanitized summary and author; edit access needed (403 view-only, 404 unreadable)', async () => {
    const res = await member.http.post(updates(projA.id)).send({ status: 'at_risk', summary: 'Waiting on **vendor**<script>x()</script>' }).expect(201);
    expect(res.body).toEqual({
      status_update: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        project_id: projA.id,
        status: 'at_risk',
        summary: expect.not.stringContaining('<script'),
        author_id: memberId,
        author: { id: memberId, display_name: member.name, type: 'human' },
        created_at: expect.any(String),
      },
    });
    await member.http.post(updates(projB.id)).send({ status: 'on_track', summary: 'x' }).expect(403);
    await guest.http.post(updates(projA.id)).send({ status: 'on_track', summary: 'x' }).expect(403);
    await guest.http.post(updates(projB.id)).send({ status: 'on_track', summary: 'x' }).expect(404);
    await other.owner.http.post(`/api/orgs/${other.id}/projects/${projA.id}/status-updates`).send({ status: 'on_track', summary: 'x' }).expect(404);
    await org.owner.http.post(updates(randomId())).send({ status: 'on_track', summary: 'x' }).expect(404);
    await org.owner.http.post(updates('nope')).send({ status: 'on_track', summary: 'x' }).expect(404);
    const n = await t.db.query('SELECT count(*)::int AS n FROM project_status_updates WHERE org_id = $1', [org.id]);
    expect(n).toEqual([{ n: 1 }]);
  });

  it('bad input: a 400 naming the field, nothing stored', async () => {
    const before = await t.db.query('SELECT count(*)::int AS n FROM project_status_updates WHERE org_id = $1', [org.id]);
    for (const [body, msg] of [
      [{ summary: 'x' }, /status/],
      [{ status: 'great', summary: 'x' }, /status/],
      [{ status: 'on_track' }, /summary/],
      [{ status: 'on_track', summary: '   ' }, /summary/],
      [{ status: 'on_track', summary: 'x'.repeat(10_001) }, /summary/],
      [{ status: 'on_track', summary: 'x', extra: true }, /extra/],
    ] as Array<[Record<string, unknown>, RegExp]>) {
      const r = await org.owner.http.post(updates(projA.id)).send(body);
      expect([r.status, r.body.error]).toEqual([400, expect.stringMatching(msg)]);
    }
    expect(await t.db.query('SELECT count(*)::int AS n FROM project_status_updates WHERE org_id = $1', [org.id])).toEqual(before);
  });

  it('GET lists newest first with the list conventions; any project access reads, others 404', async () => {
    const p = await newProject(t, org);
    for (const status of ['on_track', 'at_risk', 'off_track']) await org.owner.http.post(updates(p.id)).send({ status, summary: status }).expect(201);
    const res = await member.http.get(updates(p.id)).expect(200);
    expect(res.body).toMatchObject({ total: 3, limit: 25, offset: 0 });
    expect(res.body.status_updates.map((u: any) => u.status)).toEqual(['off_track', 'at_risk', 'on_track']);
    const page = await member.http.get(`${updates(p.id)}?limit=1&offset=1`).expect(200);
    expect(page.body.status_updates.map((u: any) => u.status)).toEqual(['at_risk']);
    expect((await member.http.get(`${updates(p.id)}?shape=envelope`).expect(200)).body).toMatchObject({ resource: 'status_updates', total: 3 });
    await viewer.get(updates(projA.id)).expect(200);
    await viewer.get(updates(p.id)).expect(404);
    await guest.http.get(updates(p.id)).expect(404);
    await other.owner.http.get(`/api/orgs/${other.id}/projects/${p.id}/status-updates`).expect(404);
  });

  it('project health: the latest status per readable project; empty scope, empty result', async () => {
    await org.owner.http.post(updates(projB.id)).send({ status: 'on_track', summary: 'fine' }).expect(201);
    await org.owner.http.post(updates(projB.id)).send({ status: 'off_track', summary: 'late' }).expect(201);
    const all = (await org.owner.http.get(health()).expect(200)).body.projects;
    const b = all.find((x: any) => x.project_id === projB.id);
    expect(b).toMatchObject({
      project_name: 'Beta',
      project_key: projB.key,
      status: 'off_track',
      latest_update: { status: 'off_track', summary: '<p>late</p>' },
    });
    const fresh = await newProject(t, org);
    expect(
      all.find((x: any) => x.project_id === fresh.id) ??
        (await org.owner.http.get(health()).expect(200)).body.projects.find((x: any) => x.project_id === fresh.id),
    ).toMatchObject({
      status: null,
      latest_update: null,
    });
    const guestView = (await guest.http.get(health()).expect(200)).body.projects;
    expect(guestView.map((x: any) => x.project_id)).toEqual([projA.id]);
    expect(guestView[0]).toMatchObject({ status: 'at_risk' });
    expect((await outsider.http.get(health()).expect(200)).body).toEqual({ projects: [] });
    expect((await other.owner.http.get(`/api/orgs/${other.id}/project-health`).expect(200)).body).toEqual({ projects: [] });
  });

  it('an update is an organization-feed entry readable with project access, and a project.status_updated webhook event', async () => {
    const hook = await insertWebhookRow(t, org.id, { events: ['project.status_updated'] });
    const p = await newProject(t, org);
    await org.owner.http.post(updates(p.id)).send({ status: 'on_track', summary: 'SECRET-SUMMARY ok' }).expect(201);
    const res = await org.owner.http.post(updates(p.id)).send({ status: 'off_track', summary: 'SECRET-SUMMARY slipping' }).expect(201);
    const feed = (await org.owner.http.get(`/api/orgs/${org.id}/activity?limit=10`).expect(200)).body.data;
    const entry = feed.find((e: any) => e.action === 'project.status_updated' && e.metadata.status_update_id === res.body.status_update.id);
    expect(entry).toMatchObject({ issue_id: null, project_id: p.id, metadata: { status: 'off_track', previous_status: 'on_track', actor: { type: 'human' } } });
    const mine = (await org.owner.http.get(`/api/orgs/${org.id}/activity?filter=by_me&limit=10`).expect(200)).body.data;
    expect(mine.some((e: any) => e.metadata?.status_update_id === res.body.status_update.id)).toBe(true);
    // readers without access to the project do not see it
    const guestFeed = (await guest.http.get(`/api/orgs/${org.id}/activity?limit=100`).expect(200)).body.data;
    expect(guestFeed.some((e: any) => e.project_id === p.id)).toBe(false);
    const rows: Array<{ event: string; schema_version: number; body: string }> = await t.db.query(
      'SELECT event, schema_version, body FROM webhook_deliveries WHERE org_id = $1 AND webhook_id = $2 ORDER BY created_at',
      [org.id, hook],
    );
    expect(rows.map((r) => r.event)).toEqual(['project.status_updated', 'project.status_updated']);
    const body = JSON.parse(rows[1].body);
    expect(body).toMatchObject({
      event: 'project.status_updated',
      schema_version: 2,
      organization_id: org.id,
      project: { id: p.id, key: p.key, name: p.name },
      status_update: { id: res.body.status_update.id, status: 'off_track', previous_status: 'on_track' },
    });
    expect(rows.every((r) => !r.body.includes('SECRET-SUMMARY'))).toBe(true);
    // destinations subscribe through the API; the project's delete takes its entries and updates along
    await org.owner.http
      .post(`/api/webhooks?orgId=${org.id}`)
      .send({ url: 'https://hooks.example.com/s', events: ['project.status_updated'] })
      .expect(201);
    await org.owner.http.delete(`/api/orgs/${org.id}/projects/${p.id}`).send({ confirmation: 'DELETE' }).expect(200);
    expect(await t.db.query('SELECT 1 FROM activity_events WHERE org_id = $1 AND project_id = $2 AND issue_id IS NULL', [org.id, p.id])).toHaveLength(0);
    expect(await t.db.query('SELECT 1 FROM project_status_updates WHERE org_id = $1 AND project_id = $2', [org.id, p.id])).toHaveLength(0);
  });

  it('off track: a project_off_track heartbeat signal (category project) for agents with assigned work there, until the status changes', async () => {
    const p = await newProject(t, org);
    const worker = await newAgent(t, org, { role: 'member' });
    const idle = await newAgent(t, org, { role: 'member' });
    await org.owner.http.post(`/api/orgs/${org.id}/issues`).send({ title: 'assigned work', projectId: p.id, assigneeId: worker.memberId }).expect(201);
    const signals = async (key: string) =>
      ((await bearer(t, key).get(`/api/orgs/${org.id}/heartbeat?view=full`).expect(200)).body.signals as any[]).filter(
        (s) => s.type === 'project_off_track' && s.metadata.project_id === p.id,
      );
    expect(await signals(worker.key)).toEqual([]);
    const u = (await org.owner.http.post(updates(p.id)).send({ status: 'off_track', summary: 'late' }).expect(201)).body.status_update;
    const [sig] = await signals(worker.key);
    expect(sig).toMatchObject({ category: 'project', severity: 'warning', metadata: { status_update_id: u.id, assigned_issues: 1 } });
    expect(await signals(idle.key)).toEqual([]);
    await org.owner.http.post(updates(p.id)).send({ status: 'at_risk', summary: 'better' }).expect(201);
    expect(await signals(worker.key)).toEqual([]);
  });
});
