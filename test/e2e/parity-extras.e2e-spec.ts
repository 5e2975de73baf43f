import { randomUUID } from 'node:crypto';
import { addMember, bearer, newAgent, newOrg, newProject, newUser, randomId, type TestOrg, type TestUser, uniq } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import { grant, insertIssue } from '../support/issues';

/**
 * The hosted product's smaller documented routes: a board's strategy context, granting agents a
 * project, and a human's notifications across organizations.
 */
describe('parity extras', () => {
  let t: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  let member: TestUser;
  let guest: TestUser;
  let memberId: string;
  let guestId: string;
  let projA: { id: string };
  let projB: { id: string };
  const o = (p: string) => `/api/orgs/${org.id}${p}`;

  beforeAll(async () => {
    t = await startTestApp();
    org = await newOrg(t);
    other = await newOrg(t);
    member = await newUser(t, 'member');
    guest = await newUser(t, 'guest');
    memberId = await addMember(t, org, member, 'member');
    guestId = await addMember(t, org, guest, 'guest');
    projA = await newProject(t, org);
    projB = await newProject(t, org);
    await grant(org, projA.id, guestId, 'view');
  });
  afterAll(() => t.close());

  describe('GET /projects/{projectId}/board-context', () => {
    it('milestones with progress, initiatives counted over the board, issue links; unreadable initiatives left out', async () => {
      const ms = (
        await org.owner.http
          .post(o(`/projects/${projA.id}/milestones`))
          .send({ name: 'Beta' })
          .expect(201)
      ).body.milestone;
      const inMs = await insertIssue(t, org.id, projA.id, { status: 'done', milestoneId: ms.id });
      await insertIssue(t, org.id, projA.id, { status: 'todo', milestoneId: ms.id });
      const direct = await insertIssue(t, org.id, projA.id, { status: 'todo' });
      await insertIssue(t, org.id, projA.id, { status: 'done', milestoneId: ms.id, archived: true }); // not counted
      const ini = (await org.owner.http.post(o('/initiatives')).send({ title: 'Activation', project_id: projA.id }).expect(201)).body.initiative;
      await org.owner.http
        .post(o(`/initiatives/${ini.id}/milestones`))
        .send({ milestone_id: ms.id })
        .expect(201);
      await org.owner.http
        .post(o(`/initiatives/${ini.id}/issues`))
        .send({ issue_id: direct.id })
        .expect(201);
      const kA = randomUUID();
      const kB = randomUUID();
      for (const [id, p] of [
        [kA, projA.id],
        [kB, projB.id],
      ])
        await t.db.query("INSERT INTO kpis (org_id, id, name, project_id, unit, source_type) VALUES ($1, $2, $3, $4, 'count', 'manual')", [
          org.id,
          id,
          uniq('k'),
          p,
        ]);
      await org.owner.http
        .post(o(`/initiatives/${ini.id}/kpi-impacts`))
        .send({ kpi_id: kA })
        .expect(201);
      await org.owner.http
        .post(o(`/initiatives/${ini.id}/kpi-impacts`))
        .send({ kpi_id: kB })
        .expect(201);
      // an initiative of project B that links an issue of A: the guest (A only) cannot read it
      const hidden = (await org.owner.http.post(o('/initiatives')).send({ title: 'Hidden', project_id: projB.id }).expect(201)).body.initiative;
      await t.db.query('INSERT INTO initiative_issues (org_id, initiative_id, issue_id) VALUES ($1, $2, $3)', [org.id, hidden.id, direct.id]);

      const b = (await org.owner.http.get(o(`/projects/${projA.id}/board-context`)).expect(200)).body.strategyContext;
      const activation = {
        id: ini.id,
        title: 'Activation',
        status: 'active',
        issueCount: 3,
        completedCount: 1,
        progress: 33,
        kpiImpactCount: 2,
        linkedMilestoneIds: [ms.id],
      };
      expect(b.milestones).toEqual([
        { id: ms.id, name: 'Beta', status: expect.any(String), issueCount: 2, completedCount: 1, progress: 50, linkedInitiatives: [activation] },
      ]);
      expect(b.initiatives).toEqual(expect.arrayContaining([activation, expect.objectContaining({ id: hidden.id, issueCount: 1 })]));
      const links = Object.fromEntries(b.issueInitiativeLinks.map((l: any) => [l.issueId, l.initiativeIds]));
      expect(links[inMs.id]).toEqual([ini.id]);
      expect(links[direct.id]).toEqual([ini.id, hidden.id].sort());

      const g = (await guest.http.get(o(`/projects/${projA.id}/board-context`)).expect(200)).body.strategyContext;
      expect(g.initiatives).toEqual([{ ...activation, kpiImpactCount: 1 }]);
      expect(Object.fromEntries(g.issueInitiativeLinks.map((l: any) => [l.issueId, l.initiativeIds]))[direct.id]).toEqual([ini.id]);
      await guest.http.get(o(`/projects/${projB.id}/board-context`)).expect(404);
      await org.owner.http.get(o(`/projects/${randomId()}/board-context`)).expect(404);
      await other.owner.http.get(`/api/orgs/${other.id}/projects/${projA.id}/board-context`).expect(404);
      await t
        .http()
        .get(o(`/projects/${projA.id}/board-context`))
        .expect(401);
    });
  });

  describe('POST /projects/{projectId}/agents', () => {
    it('grants selected manageable agents edit access; needs project admin; personal agents 400; unmanageable 404', async () => {
      const a1 = await newAgent(t, org, { projectIds: [projB.id] });
      const a2 = await newAgent(t, org, { role: 'member' });
      const res = await org.owner.http
        .post(o(`/projects/${projA.id}/agents`))
        .send({ agentIds: [a1.id, a2.id] })
        .expect(201);
      expect(res.body.project_id).toBe(projA.id);
      expect(res.body.agents.map((a: any) => a.id).sort()).toEqual([a1.id, a2.id].sort());
      expect(res.body.agents.find((a: any) => a.id === a1.id).project_ids.sort()).toEqual([projA.id, projB.id].sort());
      const rows = await t.db.query('SELECT member_id, access_level FROM project_members WHERE org_id = $1 AND project_id = $2 AND member_id = ANY($3)', [
        org.id,
        projA.id,
        [a1.id, a2.id],
      ]);
      expect(rows).toHaveLength(2);
      expect(rows.every((r: any) => r.access_level === 'edit')).toBe(true);
      // the agent can now write there
      await bearer(t, a1.key).post(o('/issues')).send({ title: 'granted', projectId: projA.id }).expect(201);
      // again: idempotent
      await org.owner.http
        .post(o(`/projects/${projA.id}/agents`))
        .send({ agent_ids: [a1.id] })
        .expect(201);

      // a member without project admin: 403; with it, agents it does not manage: 404, nothing granted
      const a3 = await newAgent(t, org, { projectIds: [projB.id] });
      await member.http
        .post(o(`/projects/${projA.id}/agents`))
        .send({ agentIds: [a3.id] })
        .expect(403);
      await grant(org, projA.id, memberId, 'admin');
      await member.http
        .post(o(`/projects/${projA.id}/agents`))
        .send({ agentIds: [a3.id] })
        .expect(404);
      expect(
        await t.db.query('SELECT 1 FROM project_members WHERE org_id = $1 AND project_id = $2 AND member_id = $3', [org.id, projA.id, a3.id]),
      ).toHaveLength(0);
      const personal = (
        await member.http
          .post(o('/agents'))
          .send({ name: uniq('mine'), personal: true })
          .expect(201)
      ).body.agent;
      expect(
        (
          await member.http
            .post(o(`/projects/${projA.id}/agents`))
            .send({ agentIds: [personal.id] })
            .expect(400)
        ).body.error,
      ).toMatch(/personal/);
      await guest.http
        .post(o(`/projects/${projA.id}/agents`))
        .send({ agentIds: [a3.id] })
        .expect(403);
      await guest.http
        .post(o(`/projects/${projB.id}/agents`))
        .send({ agentIds: [a3.id] })
        .expect(404);
      await bearer(t, a1.key)
        .post(o(`/projects/${projA.id}/agents`))
        .send({ agentIds: [a3.id] })
        .expect(403);
      for (const body of [{}, { agentIds: [] }, { agentIds: ['nope'] }, { agentIds: 'x' }]) {
        await org.owner.http
          .post(o(`/projects/${projA.id}/agents`))
          .send(body)
          .expect(400);
      }
      await org.owner.http
        .post(o(`/projects/${projA.id}/agents`))
        .send({ agentIds: [randomId()] })
        .expect(404);
    });
  });

  describe('/api/notifications (a human across organizations)', () => {
    const notify = (orgId: string, recipient: string, issueId: string, at: string, acknowledged = false) =>
      t.db.query(
        `INSERT INTO notifications (org_id, recipient_member_id, event_type, severity, action_kind, issue_id, actor_type, title, created_at, acknowledged_at)
         VALUES ($1, $2, 'issue.assigned', 'info', 'start_work', $3, 'human', 'n', $4, CASE WHEN $5::boolean THEN $4::timestamptz END) RETURNING id`,
        [orgId, recipient, issueId, at, acknowledged],
      );

    it('lists the latest over every organization, unread first; only what each membership can read; read one, read all', async () => {
      const user = await newUser(t, 'multi');
      const inOrg = await addMember(t, org, user, 'guest');
      await grant(org, projA.id, inOrg, 'view');
      const inOther = await addMember(t, other, user, 'member');
      const pOther = await newProject(t, other);
      const iA = await insertIssue(t, org.id, projA.id);
      const iB = await insertIssue(t, org.id, projB.id); // the guest cannot read B
      const iO = await insertIssue(t, other.id, pOther.id);
      const [[n1], [n2], [hiddenN], [readN]] = await Promise.all([
        notify(org.id, inOrg, iA.id, '2026-01-01T00:00:00Z'),
        notify(other.id, inOther, iO.id, '2026-01-02T00:00:00Z'),
        notify(org.id, inOrg, iB.id, '2026-01-03T00:00:00Z'),
        notify(other.id, inOther, iO.id, '2026-01-04T00:00:00Z', true),
      ]);
      const list = (await user.http.get('/api/notifications').expect(200)).body;
      expect(list.notifications.map((n: any) => [n.id, n.organization_id, n.read])).toEqual([
        [n2.id, other.id, false],
        [n1.id, org.id, false],
        [readN.id, other.id, true],
      ]);
      expect(list.unread).toBe(2);
      expect(list.notifications.some((n: any) => n.id === hiddenN.id)).toBe(false);

      const read = await user.http.post(`/api/notifications/${n1.id}/read`).expect(200);
      expect(read.body).toEqual({ notification: { id: n1.id, acknowledged_at: expect.any(String) } });
      await user.http.post(`/api/notifications/${n1.id}/read`).expect(200); // idempotent
      await user.http.post(`/api/notifications/${hiddenN.id}/read`).expect(404);
      await member.http.post(`/api/notifications/${n2.id}/read`).expect(404); // someone else's
      await user.http.post('/api/notifications/nope/read').expect(400);
      expect((await user.http.post('/api/notifications/read-all').expect(200)).body).toEqual({ success: true, marked: 1 });
      expect((await user.http.get('/api/notifications').expect(200)).body.unread).toBe(0);
      const [row] = await t.db.query('SELECT acknowledged_at FROM notifications WHERE org_id = $1 AND id = $2', [org.id, hiddenN.id]);
      expect(row.acknowledged_at).toBeNull(); // read-all leaves what the member cannot read
    });

    it('needs a human web session: 401 anonymous, 403 agent keys', async () => {
      await t.http().get('/api/notifications').expect(401);
      const agent = await newAgent(t, org, {});
      await bearer(t, agent.key).get('/api/notifications').expect(403);
      await bearer(t, agent.key).post('/api/notifications/read-all').expect(403);
    });
  });
});
