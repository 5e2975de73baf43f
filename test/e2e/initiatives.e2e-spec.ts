import { randomUUID } from 'node:crypto';
import { EventBus } from '@nestjs/cqrs';
import type { Subscription } from 'rxjs';
import { InitiativeLinksChangedEvent } from '../../src/modules/initiatives/events/initiative-links-changed.event';
import { startTestApp, type TestApp } from '../support/app';
import { addMember, bearer, newAgent, newOrg, newProject, newUser, type TestOrg, type TestUser, uniq } from '../support/factories';
import { activityRows, eventually, grant, insertIssue } from '../support/issues';

/**
 * Initiatives and their links. Projects of an initiative = primary project_id + linked projects.
 * Reads: primary project's access; projectless: non-guests, or guests who read a linked project.
 * Writes: edit/admin on every project of the initiative; none at all: owner/admin.
 */
describe('initiatives', () => {
  let t: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  let admin: TestUser;
  let member: TestUser;
  let editor: TestUser; // member with edit on A only
  let guest: TestUser; // guest with view on A
  let guestEditor: TestUser; // guest with edit on A
  let agent: ReturnType<typeof bearer>; // project-scoped agent (guest) with edit on A
  let A: { id: string; key: string };
  let B: { id: string; key: string };
  let C: { id: string; key: string };
  let events: InitiativeLinksChangedEvent[] = [];
  let sub: Subscription;

  const base = (o = org) => `/api/orgs/${o.id}/initiatives`;
  const one = (id: string, o = org) => `${base(o)}/${id}`;
  const create = async (body: Record<string, unknown> = {}, who: TestUser = org.owner) =>
    (
      await who.http
        .post(base())
        .send({ title: uniq('Ini'), ...body })
        .expect(201)
    ).body.initiative;
  const linkProject = (id: string, projectId: string, who: TestUser = org.owner) => who.http.post(`${one(id)}/projects`).send({ project_id: projectId });
  const kpi = async (projectId: string | null) => {
    const id = randomUUID();
    await t.db.query("INSERT INTO kpis (org_id, id, name, project_id, unit, source_type) VALUES ($1, $2, $3, $4, 'count', 'manual')", [
      org.id,
      id,
      uniq('kpi'),
      projectId,
    ]);
    return id;
  };
  const milestone = async (projectId: string, name = uniq('MS')) =>
    (await org.owner.http.post(`/api/orgs/${org.id}/projects/${projectId}/milestones`).send({ name }).expect(201)).body.milestone;

  beforeAll(async () => {
    t = await startTestApp();
    org = await newOrg(t);
    other = await newOrg(t);
    [admin, member, editor, guest, guestEditor] = await Promise.all(['admin', 'member', 'editor', 'guest', 'gedit'].map((n) => newUser(t, n)));
    await addMember(t, org, admin, 'admin');
    await addMember(t, org, member, 'member');
    const editorId = await addMember(t, org, editor, 'member');
    const guestId = await addMember(t, org, guest, 'guest');
    const guestEditorId = await addMember(t, org, guestEditor, 'guest');
    A = await newProject(t, org);
    B = await newProject(t, org);
    C = await newProject(t, org);
    await grant(org, A.id, editorId, 'edit');
    await grant(org, A.id, guestId, 'view');
    await grant(org, A.id, guestEditorId, 'edit');
    const ag = await newAgent(t, org, { projectIds: [A.id] });
    agent = bearer(t, ag.key);
    sub = t.app.get(EventBus).subscribe((e) => {
      if (e instanceof InitiativeLinksChangedEvent) events.push(e);
    });
  });
  afterAll(async () => {
    sub?.unsubscribe();
    await t.close();
  });

  describe('create', () => {
    it('takes title or legacy name (trimmed, both stored), aliases, and returns 201 { initiative }', async () => {
      const goal = randomUUID();
      await t.db.query('INSERT INTO goals (org_id, id, title) VALUES ($1, $2, $3)', [org.id, goal, 'G']);
      const tag = uniq('t');
      const r = await org.owner.http
        .post(base())
        .send({
          name: `   Legacy ${tag}  `,
          goalId: goal,
          ownerId: org.ownerMemberId,
          targetDate: '2031-06-30',
          start_date: '2031-01-01',
          projectId: A.id,
          status: 'proposed',
          description: 'why',
        })
        .expect(201);
      expect(r.body.initiative).toEqual({
        id: expect.any(String),
        title: `Legacy ${tag}`,
        name: `Legacy ${tag}`,
        description: 'why',
        goal_id: goal,
        owner_id: org.ownerMemberId,
        status: 'proposed',
        start_date: '2031-01-01',
        target_date: '2031-06-30',
        project_id: A.id,
        project_ids: [],
        created_by_id: org.ownerMemberId,
        created_at: expect.any(String),
        updated_at: expect.any(String),
        kpi_impacts: [],
      });
      const b = await create({ title: '\t Titled \n' });
      expect(b).toMatchObject({ title: 'Titled', name: 'Titled', status: 'active', project_id: null });
      for (const status of ['proposed', 'active', 'completed', 'paused', 'cancelled']) expect((await create({ status })).status).toBe(status);
    });

    it('refuses malformed bodies with 400, never 500', async () => {
      for (const body of [
        {},
        { title: '' },
        { title: '  ' },
        { name: 42 },
        { title: 'i', goal_id: 'x' },
        { title: 'i', status: 'x' },
        { title: 'i', status: 'Active' },
        { title: 'i', target_date: '2024-02-30' },
        { title: 'i', start_date: '2031-02-01', target_date: '2031-01-01' },
        { title: 'x'.repeat(501) },
        { title: 'a', name: 'b' },
        { title: 'i', owner_id: randomUUID() },
        { title: 'i', project_id: 'nope' },
        { title: 'i', description: 5 },
      ]) {
        const r = await org.owner.http.post(base()).send(body);
        expect([r.status, body]).toEqual([400, body]);
        expect(r.body.error).toEqual(expect.any(String));
      }
      await org.owner.http.post(base()).send({ title: 'i', goal_id: randomUUID() }).expect(404);
    });

    it('401 without credentials; 404 for another organization', async () => {
      await t.http().post(base()).send({ title: 'x' }).expect(401);
      await t.http().get(base()).expect(401);
      await other.owner.http.post(base()).send({ title: 'x' }).expect(404);
    });

    it('projectless initiatives need owner/admin; guests and project-scoped agents must send a writable project_id', async () => {
      await admin.http.post(base()).send({ title: 'by admin' }).expect(201);
      expect((await member.http.post(base()).send({ title: 'x' }).expect(403)).body.code).toBe('forbidden');
      await editor.http.post(base()).send({ title: 'x' }).expect(403);
      expect((await guest.http.post(base()).send({ title: 'x' }).expect(403)).body.code).toBe('project_required');
      expect((await guestEditor.http.post(base()).send({ title: 'x' }).expect(403)).body.code).toBe('project_required');
      expect((await agent.post(base()).send({ title: 'x' }).expect(403)).body.code).toBe('project_required');
      // with a project: edit on it
      await member.http.post(base()).send({ title: 'x', project_id: A.id }).expect(403);
      await editor.http.post(base()).send({ title: 'x', project_id: A.id }).expect(201);
      await editor.http.post(base()).send({ title: 'x', project_id: B.id }).expect(403);
      await guest.http.post(base()).send({ title: 'x', project_id: A.id }).expect(403);
      await guestEditor.http.post(base()).send({ title: 'x', projectId: A.id }).expect(201);
      await agent.post(base()).send({ title: 'x', project_id: A.id }).expect(201);
      await guestEditor.http.post(base()).send({ title: 'x', project_id: B.id }).expect(404);
      await agent.post(base()).send({ title: 'x', project_id: randomUUID() }).expect(404);
    });
  });

  describe('read', () => {
    let onA: any, onB: any, orgLevel: any, portfolioA: any;
    beforeAll(async () => {
      onA = await create({ project_id: A.id, status: 'active' });
      onB = await create({ project_id: B.id, status: 'paused' });
      orgLevel = await create({ owner_id: org.ownerMemberId });
      portfolioA = await create();
      expect((await linkProject(portfolioA.id, A.id)).status).toBe(201);
    });

    it('detail: 200 { initiative }; concealed as 404 for unreadable, other org and malformed ids', async () => {
      expect((await org.owner.http.get(one(onA.id)).expect(200)).body.initiative.id).toBe(onA.id);
      await member.http.get(one(orgLevel.id)).expect(200);
      await guest.http.get(one(onA.id)).expect(200);
      await guest.http.get(one(portfolioA.id)).expect(200); // projectless, linked to a readable project
      await guest.http.get(one(onB.id)).expect(404);
      await guest.http.get(one(orgLevel.id)).expect(404); // organization-level: non-guests only
      await agent.get(one(orgLevel.id)).expect(404);
      await agent.get(one(onA.id)).expect(200);
      await other.owner.http.get(one(onA.id, org)).expect(404);
      await org.owner.http.get(one(randomUUID())).expect(404);
      await org.owner.http.get(`${base()}/x`).expect(404);
      await t.http().get(one(onA.id)).expect(401);
    });

    it('list: readable only, filters, legacy and envelope shapes', async () => {
      const ids = async (who: { get: (p: string) => any } | TestUser, q = '') => {
        const http = 'http' in who ? who.http : who;
        const r = await http.get(`${base()}?limit=100${q}`).expect(200);
        return r.body.initiatives.map((i: any) => i.id) as string[];
      };
      const ownerSees = await ids(org.owner);
      expect(ownerSees).toEqual(expect.arrayContaining([onA.id, onB.id, orgLevel.id, portfolioA.id]));
      const guestSees = await ids(guest);
      expect(guestSees).toEqual(expect.arrayContaining([onA.id, portfolioA.id]));
      expect(guestSees).not.toContain(onB.id);
      expect(guestSees).not.toContain(orgLevel.id);
      expect(await ids(org.owner, `&project_id=${A.id}`)).toEqual(expect.arrayContaining([onA.id, portfolioA.id]));
      expect(await ids(org.owner, `&project_id=${A.id}`)).not.toContain(onB.id);
      expect(await ids(org.owner, '&status=paused')).toContain(onB.id);
      expect(await ids(org.owner, '&status=paused')).not.toContain(onA.id);
      expect(await ids(org.owner, `&owner_id=${org.ownerMemberId}`)).toContain(orgLevel.id);
      expect(await ids(org.owner, `&owner_id=${org.ownerMemberId}`)).not.toContain(onA.id);
      await guest.http.get(`${base()}?project_id=${B.id}`).expect(404);
      for (const q of ['status=bogus', 'goal_id=x', 'owner_id=1', 'project_id=x', 'limit=abc', 'offset=-1', 'shape=weird'])
        await org.owner.http.get(`${base()}?${q}`).expect(400);
      const env = await org.owner.http.get(`${base()}?shape=envelope&limit=2`).expect(200);
      expect(env.body).toMatchObject({ resource: 'initiatives', limit: 2, offset: 0, truncated: true });
      expect(env.body.items).toHaveLength(2);
      const legacy = await org.owner.http.get(`${base()}?limit=1`).expect(200);
      expect(legacy.body).toMatchObject({ limit: 1, offset: 0, total: expect.any(Number) });
    });

    it('linked project ids are filtered to readable projects', async () => {
      const ini = await create();
      await linkProject(ini.id, A.id).expect(201);
      await linkProject(ini.id, B.id).expect(201);
      expect((await org.owner.http.get(one(ini.id)).expect(200)).body.initiative.project_ids.sort()).toEqual([A.id, B.id].sort());
      expect((await guest.http.get(one(ini.id)).expect(200)).body.initiative.project_ids).toEqual([A.id]);
    });
  });

  describe('update and delete', () => {
    it('edit on every project of the initiative; organization-level needs owner/admin', async () => {
      const onA = await create({ project_id: A.id });
      const r = await editor.http.patch(one(onA.id)).send({ title: '  Renamed  ', status: 'paused', targetDate: '2032-01-01' }).expect(200);
      expect(r.body.initiative).toMatchObject({ title: 'Renamed', name: 'Renamed', status: 'paused', target_date: '2032-01-01' });
      await member.http.patch(one(onA.id)).send({ title: 'x' }).expect(403);
      await guest.http.patch(one(onA.id)).send({ title: 'x' }).expect(403);
      await guestEditor.http.patch(one(onA.id)).send({ title: 'ok' }).expect(200);
      await linkProject(onA.id, B.id).expect(201);
      await editor.http.patch(one(onA.id)).send({ title: 'x' }).expect(403); // no edit on B
      await agent.patch(one(onA.id)).send({ title: 'x' }).expect(403);
      await other.owner.http.patch(one(onA.id, org)).send({ title: 'x' }).expect(404);
      await t.http().patch(one(onA.id)).send({ title: 'x' }).expect(401);

      const orgLevel = await create();
      await member.http.patch(one(orgLevel.id)).send({ title: 'x' }).expect(403);
      await guest.http.patch(one(orgLevel.id)).send({ title: 'x' }).expect(404);
      await admin.http.patch(one(orgLevel.id)).send({ title: 'by admin', description: null }).expect(200);
      // moving the primary project needs edit on the new one; unbinding the last project needs owner/admin
      const mine = await create({ project_id: A.id }, editor);
      await editor.http.patch(one(mine.id)).send({ project_id: B.id }).expect(403);
      await editor.http.patch(one(mine.id)).send({ project_id: null }).expect(403);
      expect((await org.owner.http.patch(one(mine.id)).send({ project_id: null }).expect(200)).body.initiative.project_id).toBeNull();
    });

    it('refuses malformed updates with 400 (name is create-only; dates checked against stored ones)', async () => {
      const ini = await create({ target_date: '2031-01-10' });
      for (const body of [
        { name: 'x' },
        { title: '' },
        { title: null },
        { status: 'done' },
        { start_date: '2031-02-01' },
        { goal_id: 'x' },
        { target_date: 'tomorrow' },
      ]) {
        const r = await org.owner.http.patch(one(ini.id)).send(body);
        expect([r.status, body]).toEqual([400, body]);
      }
      await org.owner.http.patch(one(ini.id)).send({ start_date: '2031-01-01' }).expect(200);
    });

    it('delete: 200 { success: true }, then 404; same rule as update', async () => {
      const onA = await create({ project_id: A.id });
      await member.http.delete(one(onA.id)).expect(403);
      await guest.http.delete(one(onA.id)).expect(403);
      await other.owner.http.delete(one(onA.id, org)).expect(404);
      expect((await editor.http.delete(one(onA.id)).expect(200)).body).toEqual({ success: true });
      await org.owner.http.get(one(onA.id)).expect(404);
      const orgLevel = await create();
      await member.http.delete(one(orgLevel.id)).expect(403);
      await admin.http.delete(one(orgLevel.id)).expect(200);
    });
  });

  describe('project links', () => {
    it('link and unlink projects: idempotent link, edit on the new project and on every linked one', async () => {
      const ini = await create({ project_id: A.id }, editor);
      expect((await linkProject(ini.id, B.id, editor)).status).toBe(403); // view only on B
      await linkProject(ini.id, randomUUID(), editor).expect(404);
      await guestEditor.http
        .post(`${one(ini.id)}/projects`)
        .send({ project_id: B.id })
        .expect(404); // B unreadable for the guest
      for (const body of [{}, { project_id: 'x' }, { project_id: 5 }])
        await org.owner.http
          .post(`${one(ini.id)}/projects`)
          .send(body)
          .expect(400);
      const r = await linkProject(ini.id, C.id).expect(201);
      expect(r.body.initiative.project_ids).toEqual([C.id]);
      await linkProject(ini.id, C.id).expect(200);
      await linkProject(ini.id, A.id).expect(200); // the primary project counts as linked
      await editor.http
        .delete(`${one(ini.id)}/projects`)
        .send({ project_id: C.id })
        .expect(403); // no edit on C
      await org.owner.http.delete(`${one(ini.id)}/projects?project_id=${C.id}`).expect(200);
      await org.owner.http
        .delete(`${one(ini.id)}/projects`)
        .send({ project_id: C.id })
        .expect(404);
      await org.owner.http
        .delete(`${one(ini.id)}/projects`)
        .send({ project_id: 'x' })
        .expect(400);
      // the first project of an organization-level initiative needs owner/admin
      const orgLevel = await create();
      await linkProject(orgLevel.id, A.id, editor).expect(403);
      await linkProject(orgLevel.id, A.id, admin).expect(201);
      await t
        .http()
        .post(`${one(orgLevel.id)}/projects`)
        .send({ project_id: A.id })
        .expect(401);
    });
  });

  describe('KPI impacts', () => {
    it('create, list, detail, duplicate 409, delete; unreadable KPI relationships omitted', async () => {
      const ini = await create({ project_id: A.id });
      const kA = await kpi(A.id);
      const kB = await kpi(B.id);
      const r = await editor.http
        .post(`${one(ini.id)}/kpi-impacts`)
        .send({ kpi_id: kA, expected_impact: '+100 per month' })
        .expect(201);
      expect(r.body.kpi_impact).toMatchObject({
        id: expect.any(String),
        initiative_id: ini.id,
        kpi_id: kA,
        expected_impact: '+100 per month',
        created_at: expect.any(String),
      });
      expect(
        (
          await org.owner.http
            .post(`${one(ini.id)}/kpi-impacts`)
            .send({ kpiId: kA })
            .expect(409)
        ).body.code,
      ).toBe('kpi_impact_exists');
      await org.owner.http
        .post(`${one(ini.id)}/kpi-impacts`)
        .send({ kpi_id: kB })
        .expect(201);
      await guestEditor.http
        .post(`${one(ini.id)}/kpi-impacts`)
        .send({ kpi_id: await kpi(B.id) })
        .expect(404); // KPI unreadable
      await member.http
        .post(`${one(ini.id)}/kpi-impacts`)
        .send({ kpi_id: kA })
        .expect(403);
      await org.owner.http
        .post(`${one(ini.id)}/kpi-impacts`)
        .send({ kpi_id: randomUUID() })
        .expect(404);
      for (const body of [{}, { kpi_id: 'x' }, { kpi_id: kA, expected_impact: 5 }, { kpi_id: kA, expected_impact: 'x'.repeat(2001) }]) {
        await org.owner.http
          .post(`${one(ini.id)}/kpi-impacts`)
          .send(body)
          .expect(400);
      }
      expect((await org.owner.http.get(`${one(ini.id)}/kpi-impacts`).expect(200)).body.kpi_impacts.map((i: any) => i.kpi_id)).toEqual([kA, kB]);
      expect((await guest.http.get(`${one(ini.id)}/kpi-impacts`).expect(200)).body.kpi_impacts.map((i: any) => i.kpi_id)).toEqual([kA]);
      expect((await guest.http.get(one(ini.id)).expect(200)).body.initiative.kpi_impacts.map((i: any) => i.kpi_id)).toEqual([kA]);
      await other.owner.http.get(`${one(ini.id, org)}/kpi-impacts`).expect(404);
      const impact = r.body.kpi_impact.id;
      await member.http.delete(`${one(ini.id)}/kpi-impacts/${impact}`).expect(403);
      expect((await editor.http.delete(`${one(ini.id)}/kpi-impacts/${impact}`).expect(200)).body).toEqual({ success: true });
      await editor.http.delete(`${one(ini.id)}/kpi-impacts/${impact}`).expect(404);
      await t
        .http()
        .get(`${one(ini.id)}/kpi-impacts`)
        .expect(401);
    });
  });

  describe('issue links', () => {
    it('accepts every reference form, persists the canonical UUID, records the timeline and publishes the links-changed event', async () => {
      const goal = randomUUID();
      await t.db.query('INSERT INTO goals (org_id, id, title) VALUES ($1, $2, $3)', [org.id, goal, 'G']);
      const ini = await create({ project_id: A.id, goal_id: goal });
      const issues = await Promise.all([0, 1, 2, 3].map(() => insertIssue(t, org.id, A.id)));
      const forms = [issues[0].id, `${A.key}-${issues[1].number}`, `${A.key.toLowerCase()}-${issues[2].number}`, ` ${issues[3].id.toUpperCase()} `];
      events = [];
      for (const [i, ref] of forms.entries()) {
        const r = await editor.http
          .post(`${one(ini.id)}/issues`)
          .send({ issue_id: ref })
          .expect(201);
        expect(r.body.issue).toMatchObject({
          initiative_id: ini.id,
          issue_id: issues[i].id,
          issue: { id: issues[i].id, identifier: `${A.key}-${issues[i].number}` },
        });
      }
      // duplicate: idempotent 200
      await editor.http
        .post(`${one(ini.id)}/issues`)
        .send({ issueId: issues[0].id })
        .expect(200);
      const stored: Array<{ issue_id: string }> = await t.db.query('SELECT issue_id FROM initiative_issues WHERE org_id = $1 AND initiative_id = $2', [
        org.id,
        ini.id,
      ]);
      expect(stored.map((s) => s.issue_id).sort()).toEqual(issues.map((i) => i.id).sort());
      const list = await guest.http.get(`${one(ini.id)}/issues`).expect(200);
      expect(list.body.issues).toHaveLength(4);
      expect(list.body.issues[0]).toEqual({ initiative_id: ini.id, issue_id: issues[0].id, created_by_id: expect.any(String), created_at: expect.any(String) });
      const detailed = await guest.http.get(`${one(ini.id)}/issues?details=1`).expect(200);
      expect(detailed.body.issues[0].issue).toMatchObject({ id: issues[0].id, title: issues[0].title, status: 'backlog', project_id: A.id });
      expect(await eventually(async () => (await activityRows(t, org.id, issues[1].id, 'initiative.linked')).length === 1)).toBe(true);
      expect((await activityRows(t, org.id, issues[1].id, 'initiative.linked'))[0].metadata).toMatchObject({ initiative_id: ini.id });
      expect(await eventually(async () => events.length === 4)).toBe(true);
      expect(events[0]).toMatchObject({ orgId: org.id, initiativeId: ini.id, goalIds: [goal], change: 'issue_linked' });

      expect((await editor.http.delete(`${one(ini.id)}/issues/${issues[1].id}`).expect(200)).body).toEqual({ success: true });
      await editor.http.delete(`${one(ini.id)}/issues/${issues[1].id}`).expect(404);
      expect(await eventually(async () => (await activityRows(t, org.id, issues[1].id, 'initiative.unlinked')).length === 1)).toBe(true);
      expect(await eventually(async () => events.some((e) => e.change === 'issue_unlinked'))).toBe(true);
    });

    it('400 invalid, 404 unknown / concealed / out of scope, 409 ambiguous (candidates filtered by access)', async () => {
      const ini = await create({ project_id: A.id });
      await linkProject(ini.id, C.id).expect(201);
      const inB = await insertIssue(t, org.id, B.id);
      for (const body of [{}, { issue_id: '' }, { issue_id: 5 }, { issue_id: 'not a ref!' }, { issue_id: 'x'.repeat(600) }]) {
        const r = await org.owner.http.post(`${one(ini.id)}/issues`).send(body);
        expect([r.status, body]).toEqual([400, body]);
      }
      expect(
        (
          await org.owner.http
            .post(`${one(ini.id)}/issues`)
            .send({ issue_id: 'abc' })
            .expect(400)
        ).body.code,
      ).toBe('invalid_reference');
      expect(
        (
          await org.owner.http
            .post(`${one(ini.id)}/issues`)
            .send({ issue_id: randomUUID() })
            .expect(404)
        ).body.code,
      ).toBe('reference_not_found');
      expect(
        (
          await org.owner.http
            .post(`${one(ini.id)}/issues`)
            .send({ issue_id: `${A.key}-999999` })
            .expect(404)
        ).body.code,
      ).toBe('reference_not_found');
      expect(
        (
          await org.owner.http
            .post(`${one(ini.id)}/issues`)
            .send({ issue_id: inB.id })
            .expect(404)
        ).body.code,
      ).toBe('issue_out_of_scope');
      // an issue in a project the caller cannot read is concealed, not out of scope
      const guestIni = await create({ project_id: A.id }, guestEditor);
      expect(
        (
          await guestEditor.http
            .post(`${one(guestIni.id)}/issues`)
            .send({ issue_id: inB.id })
            .expect(404)
        ).body.code,
      ).toBe('reference_not_found');
      // ambiguous: the same number exists in A and C (both readable): 409 with candidates; a guest reading only A resolves it
      const [a1, c1] = [await insertIssue(t, org.id, A.id), await insertIssue(t, org.id, C.id)];
      await t.db.query('UPDATE issues SET number = 777001 WHERE org_id = $1 AND id = ANY($2::uuid[])', [org.id, [a1.id, c1.id]]);
      const amb = await org.owner.http
        .post(`${one(ini.id)}/issues`)
        .send({ issue_id: '777001' })
        .expect(409);
      expect(amb.body.code).toBe('ambiguous_reference');
      expect(amb.body.candidates.map((c: any) => c.id).sort()).toEqual([a1.id, c1.id].sort());
      await guestEditor.http
        .post(`${one(guestIni.id)}/issues`)
        .send({ issue_id: '#777001' })
        .expect(201);
    });

    it('access matrix: edit on the issue project and on every initiative project; projectless issues for eligible non-guests', async () => {
      const ini = await create({ project_id: A.id });
      const issue = await insertIssue(t, org.id, A.id);
      const loose = await insertIssue(t, org.id, null);
      const post = (who: { post: (p: string) => any }, ref: string) => who.post(`${one(ini.id)}/issues`).send({ issue_id: ref });
      await post(member.http, issue.id).expect(403);
      await post(guest.http, issue.id).expect(403);
      await post(other.owner.http, issue.id).expect(404);
      await t
        .http()
        .post(`${one(ini.id)}/issues`)
        .send({ issue_id: issue.id })
        .expect(401);
      await post(agent, issue.id).expect(201);
      await post(guestEditor.http, issue.id).expect(200);
      await post(admin.http, issue.id).expect(200);
      // projectless issue: eligible non-guests (editor has edit on every initiative project), never guests (concealed)
      await post(guestEditor.http, loose.id).expect(404);
      await post(agent, loose.id).expect(404);
      await post(editor.http, loose.id).expect(201);
      // once B is linked, editor (view on B) may no longer write the initiative's links
      await linkProject(ini.id, B.id).expect(201);
      await post(editor.http, issue.id).expect(403);
      await editor.http.delete(`${one(ini.id)}/issues/${issue.id}`).expect(403);
      await guest.http.delete(`${one(ini.id)}/issues/${issue.id}`).expect(403);
      await guest.http.delete(`${one(ini.id)}/issues/${loose.id}`).expect(403);
      // projectless initiative: owner/admin only
      const orgLevel = await create();
      await editor.http
        .post(`${one(orgLevel.id)}/issues`)
        .send({ issue_id: loose.id })
        .expect(403);
      await admin.http
        .post(`${one(orgLevel.id)}/issues`)
        .send({ issue_id: loose.id })
        .expect(201);
      await admin.http
        .post(`${one(orgLevel.id)}/issues`)
        .send({ issue_id: issue.id })
        .expect(404); // A not linked
      // unreadable links are filtered out of reads
      const mixed = await create();
      await linkProject(mixed.id, A.id).expect(201);
      await linkProject(mixed.id, B.id).expect(201);
      const inB = await insertIssue(t, org.id, B.id);
      await org.owner.http
        .post(`${one(mixed.id)}/issues`)
        .send({ issue_id: inB.id })
        .expect(201);
      await org.owner.http
        .post(`${one(mixed.id)}/issues`)
        .send({ issue_id: issue.id })
        .expect(201);
      await org.owner.http
        .post(`${one(mixed.id)}/issues`)
        .send({ issue_id: loose.id })
        .expect(201);
      expect((await org.owner.http.get(`${one(mixed.id)}/issues`).expect(200)).body.issues).toHaveLength(3);
      expect((await member.http.get(`${one(mixed.id)}/issues`).expect(200)).body.issues).toHaveLength(3);
      expect((await guest.http.get(`${one(mixed.id)}/issues`).expect(200)).body.issues.map((i: any) => i.issue_id)).toEqual([issue.id]);
      await guest.http.delete(`${one(mixed.id)}/issues/${inB.id}`).expect(403); // the initiative is checked first
      await other.owner.http.get(`${one(mixed.id, org)}/issues`).expect(404);
      await t
        .http()
        .get(`${one(mixed.id)}/issues`)
        .expect(401);
    });
  });

  describe('milestone links', () => {
    it('UUID or exact name; ambiguous names 409; scope and access rules', async () => {
      const ini = await create({ project_id: A.id });
      await linkProject(ini.id, C.id).expect(201);
      const name = uniq('Beta');
      const mA = await milestone(A.id, name);
      const mC = await milestone(C.id, name);
      const solo = await milestone(A.id);
      const mB = await milestone(B.id);
      events = [];
      const r = await org.owner.http
        .post(`${one(ini.id)}/milestones`)
        .send({ milestone_id: solo.name })
        .expect(201);
      expect(r.body.milestone).toMatchObject({ initiative_id: ini.id, milestone_id: solo.id, milestone: { id: solo.id, name: solo.name, project_id: A.id } });
      await org.owner.http
        .post(`${one(ini.id)}/milestones`)
        .send({ milestoneId: solo.id })
        .expect(200);
      expect(await eventually(async () => events.some((e) => e.change === 'milestone_linked' && e.initiativeId === ini.id))).toBe(true);
      const amb = await org.owner.http
        .post(`${one(ini.id)}/milestones`)
        .send({ milestone_id: name })
        .expect(409);
      expect(amb.body.code).toBe('ambiguous_milestone');
      expect(amb.body.candidates.map((c: any) => c.id).sort()).toEqual([mA.id, mC.id].sort());
      await org.owner.http
        .post(`${one(ini.id)}/milestones`)
        .send({ milestone_id: name.toUpperCase() })
        .expect(404); // exact name only
      await org.owner.http
        .post(`${one(ini.id)}/milestones`)
        .send({ milestone_id: mC.id })
        .expect(201);
      expect(
        (
          await org.owner.http
            .post(`${one(ini.id)}/milestones`)
            .send({ milestone_id: mB.id })
            .expect(404)
        ).body.code,
      ).toBe('milestone_out_of_scope');
      expect(
        (
          await org.owner.http
            .post(`${one(ini.id)}/milestones`)
            .send({ milestone_id: mB.name })
            .expect(404)
        ).body.code,
      ).toBe('milestone_out_of_scope');
      await org.owner.http
        .post(`${one(ini.id)}/milestones`)
        .send({ milestone_id: randomUUID() })
        .expect(404);
      for (const body of [{}, { milestone_id: '' }, { milestone_id: 7 }])
        await org.owner.http
          .post(`${one(ini.id)}/milestones`)
          .send(body)
          .expect(400);
      // a guest reading only A resolves the same name to A's milestone, but has no edit: 403; guest editor has no edit on C
      const gIni = await create({ project_id: A.id }, guestEditor);
      await guestEditor.http
        .post(`${one(gIni.id)}/milestones`)
        .send({ milestone_id: name })
        .expect(201);
      await guest.http
        .post(`${one(gIni.id)}/milestones`)
        .send({ milestone_id: name })
        .expect(403);
      await editor.http
        .post(`${one(ini.id)}/milestones`)
        .send({ milestone_id: mA.id })
        .expect(403); // no edit on C
      await other.owner.http
        .post(`${one(ini.id, org)}/milestones`)
        .send({ milestone_id: mA.id })
        .expect(404);
      await t
        .http()
        .post(`${one(ini.id)}/milestones`)
        .send({ milestone_id: mA.id })
        .expect(401);
      expect((await org.owner.http.get(`${one(ini.id)}/milestones`).expect(200)).body.milestones.map((m: any) => m.milestone_id)).toEqual([solo.id, mC.id]);
      expect((await guest.http.get(`${one(ini.id)}/milestones`).expect(200)).body.milestones.map((m: any) => m.milestone_id)).toEqual([solo.id]);
      await editor.http.delete(`${one(ini.id)}/milestones/${solo.id}`).expect(403);
      expect((await org.owner.http.delete(`${one(ini.id)}/milestones/${solo.id}`).expect(200)).body).toEqual({ success: true });
      await org.owner.http.delete(`${one(ini.id)}/milestones/${solo.id}`).expect(404);
      await org.owner.http.delete(`${one(ini.id)}/milestones/x`).expect(404);
      expect(await eventually(async () => events.some((e) => e.change === 'milestone_unlinked'))).toBe(true);
    });
  });

  describe('issue side', () => {
    it('GET needs issue access and omits unreadable initiatives; POST/DELETE follow the same rules', async () => {
      const issue = await insertIssue(t, org.id, A.id);
      const readable = await create({ project_id: A.id });
      const hiddenPrimary = await create({ project_id: B.id });
      await linkProject(hiddenPrimary.id, A.id).expect(201);
      const path = `/api/orgs/${org.id}/issues/${issue.id}/initiatives`;
      const r = await editor.http.post(path).send({ initiative_id: readable.id }).expect(201);
      expect(r.body.initiative).toMatchObject({ id: readable.id, title: readable.title, linked_at: expect.any(String) });
      await editor.http.post(path).send({ initiativeId: readable.id }).expect(200);
      await editor.http.post(path).send({ initiative_id: hiddenPrimary.id }).expect(403); // no edit on B
      await org.owner.http.post(path).send({ initiative_id: hiddenPrimary.id }).expect(201);
      expect((await org.owner.http.get(path).expect(200)).body.initiatives.map((i: any) => i.id)).toEqual([readable.id, hiddenPrimary.id]);
      expect((await guest.http.get(path).expect(200)).body.initiatives.map((i: any) => i.id)).toEqual([readable.id]);
      expect(await eventually(async () => (await activityRows(t, org.id, issue.id, 'initiative.linked')).length === 2)).toBe(true);
      for (const body of [{}, { initiative_id: 'x' }, { initiative_id: 3 }]) await org.owner.http.post(path).send(body).expect(400);
      await org.owner.http.post(path).send({ initiative_id: randomUUID() }).expect(404);
      await guestEditor.http.post(path).send({ initiative_id: hiddenPrimary.id }).expect(404); // unreadable initiative
      const inB = await insertIssue(t, org.id, B.id);
      await guest.http.get(`/api/orgs/${org.id}/issues/${inB.id}/initiatives`).expect(404);
      await guestEditor.http.post(`/api/orgs/${org.id}/issues/${inB.id}/initiatives`).send({ initiative_id: readable.id }).expect(404);
      await org.owner.http.post(`/api/orgs/${org.id}/issues/${inB.id}/initiatives`).send({ initiative_id: readable.id }).expect(404); // B not linked
      await other.owner.http.get(`/api/orgs/${org.id}/issues/${issue.id}/initiatives`).expect(404);
      await t.http().get(path).expect(401);
      await guest.http.delete(`${path}/${readable.id}`).expect(403);
      expect((await editor.http.delete(`${path}/${readable.id}`).expect(200)).body).toEqual({ success: true });
      await editor.http.delete(`${path}/${readable.id}`).expect(404);
      expect(await eventually(async () => (await activityRows(t, org.id, issue.id, 'initiative.unlinked')).length === 1)).toBe(true);
    });
  });

  describe('formula KPI recalculation on link changes', () => {
    it('linking and unlinking issues and milestones, and moving the initiative to another goal, recalculate the goal formula KPI', async () => {
      const goal = (
        await org.owner.http
          .post(`/api/orgs/${org.id}/goals`)
          .send({ title: uniq('Goal') })
          .expect(201)
      ).body.goal;
      const kpiRes = await org.owner.http
        .post(`/api/orgs/${org.id}/kpis`)
        .send({
          name: uniq('formula'),
          goal_id: goal.id,
          unit: 'count',
          target_direction: 'increase',
          source_type: 'formula',
          source_config: { formula: 'goal_linked_issue_completion', done_statuses: ['done'] },
        })
        .expect(201);
      const kpiId = kpiRes.body.kpi.id;
      const values = async () => {
        const k = (await org.owner.http.get(`/api/orgs/${org.id}/kpis/${kpiId}`).expect(200)).body.kpi;
        return [Number(k.current_value), Number(k.target_value)];
      };
      const ini = await create({ project_id: A.id, goal_id: goal.id });
      const done = await insertIssue(t, org.id, A.id, { status: 'done' });
      const ms = await milestone(A.id);
      await insertIssue(t, org.id, A.id, { status: 'done', milestoneId: ms.id });
      await insertIssue(t, org.id, A.id, { status: 'todo', milestoneId: ms.id });
      await org.owner.http
        .post(`${one(ini.id)}/issues`)
        .send({ issue_id: done.id })
        .expect(201);
      expect(await eventually(async () => JSON.stringify(await values()) === '[1,1]')).toBe(true);
      await org.owner.http
        .post(`${one(ini.id)}/milestones`)
        .send({ milestone_id: ms.id })
        .expect(201);
      expect(await eventually(async () => JSON.stringify(await values()) === '[2,3]')).toBe(true);
      await org.owner.http.delete(`${one(ini.id)}/issues/${done.id}`).expect(200);
      expect(await eventually(async () => JSON.stringify(await values()) === '[1,2]')).toBe(true);
      await org.owner.http.patch(one(ini.id)).send({ goal_id: null }).expect(200);
      expect(await eventually(async () => JSON.stringify(await values()) === '[0,0]')).toBe(true);
    });
  });

  describe('issue list initiativeId filter', () => {
    it('matches issues linked directly or through a linked milestone, only for a readable initiative', async () => {
      const ini = await create({ project_id: A.id });
      const ms = await milestone(A.id);
      const direct = await insertIssue(t, org.id, A.id);
      const viaMs = await insertIssue(t, org.id, A.id, { milestoneId: ms.id });
      const unrelated = await insertIssue(t, org.id, A.id);
      await org.owner.http
        .post(`${one(ini.id)}/issues`)
        .send({ issue_id: direct.id })
        .expect(201);
      await org.owner.http
        .post(`${one(ini.id)}/milestones`)
        .send({ milestone_id: ms.id })
        .expect(201);
      const list = async (who: TestUser, q: string) =>
        (await who.http.get(`/api/orgs/${org.id}/issues?limit=100&${q}`).expect(200)).body.issues.map((i: any) => i.id);
      const ids = await list(org.owner, `initiativeId=${ini.id}`);
      expect(ids.sort()).toEqual([direct.id, viaMs.id].sort());
      expect(ids).not.toContain(unrelated.id);
      expect((await list(guest, `initiative_id=${ini.id}`)).sort()).toEqual([direct.id, viaMs.id].sort());
      const onB = await create({ project_id: B.id });
      await guest.http.get(`/api/orgs/${org.id}/issues?initiativeId=${onB.id}`).expect(404);
      await org.owner.http.get(`/api/orgs/${org.id}/issues?initiativeId=${randomUUID()}`).expect(404);
      await org.owner.http.get(`/api/orgs/${org.id}/issues?initiativeId=x`).expect(400);
    });
  });
});
