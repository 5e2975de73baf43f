import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../support/app';
import { addMember, bearer, newAgent, newOrg, newProject, newUser, type TestOrg, type TestUser, uniq } from '../support/factories';
import { activityRows, eventually, grant, insertIssue } from '../support/issues';

/**
 * Initiative targets: typed scope (`initiative` = the initiative's projects, `projects` = a subset)
 * decides read and write; gate targets are stateful (completed of needed) with a due-soon window.
 */
describe('initiative targets', () => {
  let t: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  let admin: TestUser;
  let member: TestUser;
  let editor: TestUser; // member with edit on A only
  let guest: TestUser; // guest with view on A
  let guestEditor: TestUser; // guest with edit on A
  let agent: ReturnType<typeof bearer>; // project-scoped agent with edit on A
  let A: { id: string; key: string };
  let B: { id: string; key: string };

  const ini = (id: string, o = org) => `/api/orgs/${o.id}/initiatives/${id}`;
  const targets = (iniId: string, o = org) => `${ini(iniId, o)}/targets`;
  const createIni = async (body: Record<string, unknown> = {}, projects: string[] = []) => {
    const i = (
      await org.owner.http
        .post(`/api/orgs/${org.id}/initiatives`)
        .send({ title: uniq('Ini'), ...body })
        .expect(201)
    ).body.initiative;
    for (const p of projects)
      await org.owner.http
        .post(`${ini(i.id)}/projects`)
        .send({ project_id: p })
        .expect(201);
    return i;
  };
  const createTarget = async (iniId: string, body: Record<string, unknown> = {}, who: TestUser = org.owner) =>
    (
      await who.http
        .post(targets(iniId))
        .send({ title: uniq('Target'), ...body })
        .expect(201)
    ).body.target;
  const today = () => new Date().toISOString().slice(0, 10);
  const dateIn = (days: number) => {
    const d = new Date();
    d.setUTCDate(d.getUTCDate() + days);
    return d.toISOString().slice(0, 10);
  };

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
    await grant(org, A.id, editorId, 'edit');
    await grant(org, A.id, guestId, 'view');
    await grant(org, A.id, guestEditorId, 'edit');
    agent = bearer(t, (await newAgent(t, org, { projectIds: [A.id] })).key);
  });
  afterAll(() => t.close());

  it('CRUD with the wrapper keys: { targets }, { target }, { success: true }', async () => {
    const i = await createIni({}, [A.id]);
    const body = {
      title: '  Get 5 retailers live ',
      description: 'before launch',
      mode: 'gate',
      unit: 'count',
      unit_label: 'retailers',
      current_value: 0,
      target_value: 5,
      target_direction: 'increase',
      target_date: '2031-07-05',
      due_soon_days: 7,
    };
    const r = await org.owner.http.post(targets(i.id)).send(body).expect(201);
    expect(r.body.target).toEqual({
      id: expect.any(String),
      initiative_id: i.id,
      title: 'Get 5 retailers live',
      description: 'before launch',
      mode: 'gate',
      status: 'active',
      unit: 'count',
      unit_label: 'retailers',
      baseline_value: null,
      current_value: 0,
      target_value: 5,
      target_direction: 'increase',
      target_date: '2031-07-05',
      due_soon_days: 7,
      due_state: 'on_track',
      progress: { completed: 0, needed: 5, percent: null, complete: false, label: '0/5 retailers complete' },
      scope: { type: 'initiative', project_ids: [A.id] },
      issueIds: [],
      milestoneIds: [],
      issue_ids: [],
      milestone_ids: [],
      created_by_id: org.ownerMemberId,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const id = r.body.target.id;
    expect((await org.owner.http.get(targets(i.id)).expect(200)).body.targets.map((x: any) => x.id)).toEqual([id]);
    expect((await org.owner.http.get(`${targets(i.id)}/${id}`).expect(200)).body.target.id).toBe(id);
    const p = await org.owner.http
      .patch(`${targets(i.id)}/${id}`)
      .send({ current_value: 3, description: null })
      .expect(200);
    expect(p.body.target).toMatchObject({ current_value: 3, description: null, progress: { completed: 3, needed: 5, label: '3/5 retailers complete' } });
    const done = await org.owner.http
      .patch(`${targets(i.id)}/${id}`)
      .send({ current_value: 5 })
      .expect(200);
    expect(done.body.target).toMatchObject({ due_state: 'complete', progress: { complete: true } });
    expect((await org.owner.http.delete(`${targets(i.id)}/${id}`).expect(200)).body).toEqual({ success: true });
    await org.owner.http.get(`${targets(i.id)}/${id}`).expect(404);
    await org.owner.http.delete(`${targets(i.id)}/${id}`).expect(404);
  });

  it('defaults, progress targets and due states (gate due-soon window; no pace language)', async () => {
    const i = await createIni({}, [A.id]);
    const bare = await createTarget(i.id);
    expect(bare).toMatchObject({
      mode: 'progress',
      status: 'active',
      unit: 'count',
      target_direction: 'increase',
      due_soon_days: 7,
      due_state: 'no_date',
      current_value: null,
    });
    const prog = await createTarget(i.id, { baseline: 10, current_value: 40, target_value: 110, unit_label: 'customers', target_date: dateIn(3) });
    expect(prog).toMatchObject({
      baseline_value: 10,
      due_state: 'on_track',
      progress: { percent: 30, complete: false, label: '40 of 110 customers', completed: null },
    });
    const soon = await createTarget(i.id, { mode: 'gate', current_value: 2, target_value: 5, target_date: dateIn(3) });
    expect(soon).toMatchObject({ due_state: 'due_soon', progress: { label: '2/5 complete' } });
    expect(await createTarget(i.id, { mode: 'gate', current_value: 2, target_value: 5, target_date: today(), due_soon_days: 0 })).toMatchObject({
      due_state: 'due_soon',
    });
    expect(await createTarget(i.id, { mode: 'gate', current_value: 2, target_value: 5, target_date: dateIn(10) })).toMatchObject({ due_state: 'on_track' });
    expect(await createTarget(i.id, { mode: 'gate', current_value: 1, target_value: 4, target_date: dateIn(-3) })).toMatchObject({ due_state: 'overdue' });
    expect(await createTarget(i.id, { mode: 'gate', target_value: 4, target_date: dateIn(-3), status: 'cancelled' })).toMatchObject({ due_state: 'cancelled' });
    expect(await createTarget(i.id, { target_direction: 'decrease', current_value: 3, target_value: 5 })).toMatchObject({ progress: { complete: true } });
  });

  it('refuses malformed bodies with 400, never 500', async () => {
    const i = await createIni({}, [A.id]);
    const existing = await createTarget(i.id, { mode: 'gate', current_value: 1, target_value: 3 });
    const bad = [
      {},
      { title: '' },
      { title: 5 },
      { title: 't', mode: 'sprint' },
      { title: 't', status: 'done' },
      { title: 't', unit: 'furlongs' },
      { title: 't', target_direction: 'up' },
      { title: 't', target_value: 'abc' },
      { title: 't', current_value: Number.MAX_VALUE },
      { title: 't', target_date: '2031-02-30' },
      { title: 't', due_soon_days: -1 },
      { title: 't', due_soon_days: 1.5 },
      { title: 't', due_soon_days: 400 },
      { title: 't', due_soon_days: null },
      { title: 't', mode: 'gate', current_value: 1.5 },
      { title: 't', mode: 'gate', target_value: -2 },
      { title: 't', scope: 'nowhere' },
      { title: 't', scope: { type: 'projects' } },
      { title: 't', scope: { type: 'projects', project_ids: ['x'] } },
      { title: 't', scope: { type: 'projects', project_ids: [B.id] } },
      { title: 't', scope: [] },
      { title: 't', unit_label: 'x'.repeat(101) },
      { title: 't', description: 1 },
    ];
    for (const body of bad) {
      const r = await org.owner.http.post(targets(i.id)).send(body);
      expect([r.status, body]).toEqual([400, body]);
      expect(r.body.error).toEqual(expect.any(String));
    }
    for (const body of [{ current_value: 2.5 }, { mode: 'sprint' }, { title: null }, { due_soon_days: 'soon' }]) {
      const r = await org.owner.http.patch(`${targets(i.id)}/${existing.id}`).send(body);
      expect([r.status, body]).toEqual([400, body]);
    }
    // switching a fractional progress target to gate is refused on the merged record
    const prog = await createTarget(i.id, { current_value: 1.5 });
    await org.owner.http
      .patch(`${targets(i.id)}/${prog.id}`)
      .send({ mode: 'gate' })
      .expect(400);
    await org.owner.http.get(`${targets(i.id)}/x`).expect(404);
  });

  it('401, other organization 404, unreadable initiative 404', async () => {
    const i = await createIni({ project_id: B.id });
    const tg = await createTarget(i.id);
    await t.http().get(targets(i.id)).expect(401);
    await t.http().post(targets(i.id)).send({ title: 'x' }).expect(401);
    await other.owner.http.get(targets(i.id, org)).expect(404);
    await other.owner.http.get(`${targets(i.id, org)}/${tg.id}`).expect(404);
    await guest.http.get(targets(i.id)).expect(404);
    await guest.http.get(`${targets(i.id)}/${tg.id}`).expect(404);
    await guestEditor.http.post(targets(i.id)).send({ title: 'x' }).expect(404);
    await org.owner.http.get(targets(randomUUID())).expect(404);
    await org.owner.http.get(`${targets(i.id)}/${randomUUID()}`).expect(404);
  });

  it('create: edit on every project linked to the initiative; projectless initiative: owner/admin', async () => {
    const onA = await createIni({ project_id: A.id });
    await createTarget(onA.id, {}, editor);
    await createTarget(onA.id, {}, guestEditor);
    expect((await agent.post(targets(onA.id)).send({ title: 'agent' }).expect(201)).body.target.title).toBe('agent');
    await member.http.post(targets(onA.id)).send({ title: 'x' }).expect(403);
    await guest.http.post(targets(onA.id)).send({ title: 'x' }).expect(403);
    const both = await createIni({ project_id: A.id }, [B.id]);
    await editor.http.post(targets(both.id)).send({ title: 'x' }).expect(403);
    await guestEditor.http.post(targets(both.id)).send({ title: 'x' }).expect(403);
    const orgLevel = await createIni();
    await editor.http.post(targets(orgLevel.id)).send({ title: 'x' }).expect(403);
    await member.http.post(targets(orgLevel.id)).send({ title: 'x' }).expect(403);
    await guest.http.post(targets(orgLevel.id)).send({ title: 'x' }).expect(404);
    await createTarget(orgLevel.id, {}, admin);
  });

  it('typed scope decides read, update and delete', async () => {
    const i = await createIni({}, [A.id, B.id]);
    const scopedA = await createTarget(i.id, { scope: { type: 'projects', project_ids: [A.id] } });
    expect(scopedA.scope).toEqual({ type: 'projects', project_ids: [A.id] });
    const scopedB = await createTarget(i.id, { scope_type: 'projects', scope_project_ids: [B.id] });
    const whole = await createTarget(i.id);
    // guest (view on A) reads the initiative (through A), the A-scoped and initiative-scoped targets, never the B one
    expect((await guest.http.get(targets(i.id)).expect(200)).body.targets.map((x: any) => x.id).sort()).toEqual([scopedA.id, whole.id].sort());
    await guest.http.get(`${targets(i.id)}/${scopedB.id}`).expect(404);
    expect((await guest.http.get(`${targets(i.id)}/${whole.id}`).expect(200)).body.target.scope.project_ids).toEqual([A.id]);
    expect((await member.http.get(targets(i.id)).expect(200)).body.targets).toHaveLength(3);
    // editor (edit on A only) may change the A-scoped target but not the others, nor its scope
    await editor.http
      .patch(`${targets(i.id)}/${scopedA.id}`)
      .send({ current_value: 4 })
      .expect(200);
    await agent
      .patch(`${targets(i.id)}/${scopedA.id}`)
      .send({ current_value: 5 })
      .expect(200);
    await editor.http
      .patch(`${targets(i.id)}/${whole.id}`)
      .send({ current_value: 4 })
      .expect(403);
    await editor.http
      .patch(`${targets(i.id)}/${scopedB.id}`)
      .send({ current_value: 4 })
      .expect(403);
    await guestEditor.http
      .patch(`${targets(i.id)}/${scopedB.id}`)
      .send({ current_value: 4 })
      .expect(404);
    await editor.http
      .patch(`${targets(i.id)}/${scopedA.id}`)
      .send({ scope: { type: 'initiative' } })
      .expect(403);
    await guest.http
      .patch(`${targets(i.id)}/${scopedA.id}`)
      .send({ current_value: 1 })
      .expect(403);
    await member.http.delete(`${targets(i.id)}/${scopedA.id}`).expect(403);
    await editor.http.delete(`${targets(i.id)}/${whole.id}`).expect(403);
    // the owner widens the scope; then the editor no longer may write it
    const widened = await org.owner.http
      .patch(`${targets(i.id)}/${scopedA.id}`)
      .send({ scope: { type: 'projects', project_ids: [A.id, B.id] } })
      .expect(200);
    expect(widened.body.target.scope.project_ids.sort()).toEqual([A.id, B.id].sort());
    await editor.http
      .patch(`${targets(i.id)}/${scopedA.id}`)
      .send({ current_value: 1 })
      .expect(403);
    await org.owner.http
      .patch(`${targets(i.id)}/${scopedA.id}`)
      .send({ scope: { type: 'projects', project_ids: [A.id] } })
      .expect(200);
    expect((await editor.http.delete(`${targets(i.id)}/${scopedA.id}`).expect(200)).body).toEqual({ success: true });
  });

  it('issue links: reference forms, target authorized first, 400 / 404 / 409, readable ids only, timeline', async () => {
    const i = await createIni({}, [A.id, B.id]);
    const tA = await createTarget(i.id, { scope: { type: 'projects', project_ids: [A.id] } });
    const inA = await insertIssue(t, org.id, A.id);
    const inB = await insertIssue(t, org.id, B.id);
    const loose = await insertIssue(t, org.id, null);
    const path = `${targets(i.id)}/${tA.id}/issues`;
    const r = await org.owner.http
      .post(path)
      .send({ issue_id: `${A.key}-${inA.number}` })
      .expect(201);
    expect(r.body.issue).toMatchObject({
      target_id: tA.id,
      initiative_id: i.id,
      issue_id: inA.id,
      issue: { id: inA.id, identifier: `${A.key}-${inA.number}` },
    });
    await org.owner.http.post(path).send({ issue_id: inA.id }).expect(200);
    await org.owner.http.post(path).send({ issue_id: inB.id }).expect(201);
    await org.owner.http.post(path).send({ issue_id: loose.id.toUpperCase() }).expect(201);
    expect(await eventually(async () => (await activityRows(t, org.id, inA.id, 'initiative_target.linked')).length === 1)).toBe(true);
    expect((await activityRows(t, org.id, inA.id, 'initiative_target.linked'))[0].metadata).toMatchObject({ target_id: tA.id, initiative_id: i.id });
    for (const body of [{}, { issue_id: '' }, { issue_id: [] }, { issue_id: '??' }]) expect((await org.owner.http.post(path).send(body)).status).toBe(400);
    expect((await org.owner.http.post(path).send({ issue_id: randomUUID() }).expect(404)).body.code).toBe('reference_not_found');
    const outside = await insertIssue(t, org.id, (await newProject(t, org)).id);
    expect((await org.owner.http.post(path).send({ issue_id: outside.id }).expect(404)).body.code).toBe('issue_out_of_scope');
    const [x, y] = [await insertIssue(t, org.id, A.id), await insertIssue(t, org.id, B.id)];
    await t.db.query('UPDATE issues SET number = 888001 WHERE org_id = $1 AND id = ANY($2::uuid[])', [org.id, [x.id, y.id]]);
    expect((await org.owner.http.post(path).send({ issue_id: '888001' }).expect(409)).body.code).toBe('ambiguous_reference');
    // the target is authorized before the issue is read: editor lacks edit on B (an initiative project) -> 403 even for a bogus reference
    await editor.http.post(path).send({ issue_id: 'whatever' }).expect(403);
    await guest.http.post(path).send({ issue_id: inA.id }).expect(403);
    await other.owner.http
      .post(`${targets(i.id, org)}/${tA.id}/issues`)
      .send({ issue_id: inA.id })
      .expect(404);
    await t.http().post(path).send({ issue_id: inA.id }).expect(401);
    // reads: link ids filtered to readable resources
    const ownerView = (await org.owner.http.get(`${targets(i.id)}/${tA.id}`).expect(200)).body.target;
    expect(ownerView.issueIds.sort()).toEqual([inA.id, inB.id, loose.id].sort());
    const guestView = (await guest.http.get(`${targets(i.id)}/${tA.id}`).expect(200)).body.target;
    expect(guestView.issueIds).toEqual([inA.id]);
    expect(guestView.issue_ids).toEqual([inA.id]);
    expect((await guest.http.get(path).expect(200)).body.issues.map((l: any) => l.issue_id)).toEqual([inA.id]);
    expect((await member.http.get(path).expect(200)).body.issues).toHaveLength(3);
    // unlink
    await guest.http.delete(`${path}/${inA.id}`).expect(403);
    expect((await org.owner.http.delete(`${path}/${inA.id}`).expect(200)).body).toEqual({ success: true });
    await org.owner.http.delete(`${path}/${inA.id}`).expect(404);
    await org.owner.http.delete(`${path}/not-a-uuid`).expect(404);
    expect(await eventually(async () => (await activityRows(t, org.id, inA.id, 'initiative_target.unlinked')).length === 1)).toBe(true);
  });

  it('issue link matrix on an A-only initiative: edit/admin on A, projectless issues for non-guests only', async () => {
    const i = await createIni({ project_id: A.id });
    const tg = await createTarget(i.id);
    const inA = await insertIssue(t, org.id, A.id);
    const loose = await insertIssue(t, org.id, null);
    const path = `${targets(i.id)}/${tg.id}/issues`;
    await member.http.post(path).send({ issue_id: inA.id }).expect(403);
    await guest.http.post(path).send({ issue_id: inA.id }).expect(403);
    await editor.http.post(path).send({ issue_id: inA.id }).expect(201);
    await guestEditor.http.post(path).send({ issue_id: inA.id }).expect(200);
    await agent.post(path).send({ issue_id: inA.id }).expect(200);
    await admin.http.post(path).send({ issue_id: inA.id }).expect(200);
    await guestEditor.http.post(path).send({ issue_id: loose.id }).expect(404);
    await agent.post(path).send({ issue_id: loose.id }).expect(404);
    await editor.http.post(path).send({ issue_id: loose.id }).expect(201);
    await guestEditor.http.delete(`${path}/${loose.id}`).expect(404);
    await editor.http.delete(`${path}/${loose.id}`).expect(200);
  });

  it('milestone links: UUID or exact name, milestone project must be linked to the initiative, readable links only', async () => {
    const i = await createIni({}, [A.id, B.id]);
    const tg = await createTarget(i.id);
    const ms = async (projectId: string, name = uniq('MS')) =>
      (await org.owner.http.post(`/api/orgs/${org.id}/projects/${projectId}/milestones`).send({ name }).expect(201)).body.milestone;
    const name = uniq('Gate');
    const mA = await ms(A.id, name);
    const mB = await ms(B.id, name);
    const solo = await ms(A.id);
    const elsewhere = await ms((await newProject(t, org)).id);
    const path = `${targets(i.id)}/${tg.id}/milestones`;
    const r = await org.owner.http.post(path).send({ milestone_id: solo.name }).expect(201);
    expect(r.body.milestone).toMatchObject({ target_id: tg.id, initiative_id: i.id, milestone_id: solo.id, milestone: { name: solo.name, project_id: A.id } });
    await org.owner.http.post(path).send({ milestone_id: solo.id }).expect(200);
    expect((await org.owner.http.post(path).send({ milestone_id: name }).expect(409)).body.code).toBe('ambiguous_milestone');
    await org.owner.http.post(path).send({ milestone_id: mB.id }).expect(201);
    expect((await org.owner.http.post(path).send({ milestone_id: elsewhere.id }).expect(404)).body.code).toBe('milestone_out_of_scope');
    await org.owner.http.post(path).send({ milestone_id: randomUUID() }).expect(404);
    for (const body of [{}, { milestone_id: '' }, { milestone_id: {} }]) await org.owner.http.post(path).send(body).expect(400);
    await editor.http.post(path).send({ milestone_id: mA.id }).expect(403);
    await t.http().post(path).send({ milestone_id: mA.id }).expect(401);
    expect((await org.owner.http.get(path).expect(200)).body.milestones.map((m: any) => m.milestone_id)).toEqual([solo.id, mB.id]);
    expect((await guest.http.get(path).expect(200)).body.milestones.map((m: any) => m.milestone_id)).toEqual([solo.id]);
    expect((await guest.http.get(`${targets(i.id)}/${tg.id}`).expect(200)).body.target.milestoneIds).toEqual([solo.id]);
    expect((await org.owner.http.get(`${targets(i.id)}/${tg.id}`).expect(200)).body.target.milestone_ids).toEqual([solo.id, mB.id]);
    await guest.http.delete(`${path}/${solo.id}`).expect(403);
    expect((await org.owner.http.delete(`${path}/${solo.id}`).expect(200)).body).toEqual({ success: true });
    await org.owner.http.delete(`${path}/${solo.id}`).expect(404);
    // a milestone in an A-only initiative: guest editor links it by name; the same name in B is not a candidate it can see
    const onlyA = await createIni({ project_id: A.id });
    const tgA = await createTarget(onlyA.id);
    await guestEditor.http
      .post(`${targets(onlyA.id)}/${tgA.id}/milestones`)
      .send({ milestone_id: name })
      .expect(201);
    await other.owner.http.get(`${targets(i.id, org)}/${tg.id}/milestones`).expect(404);
  });

  it('deleting the initiative removes its targets and their links', async () => {
    const i = await createIni({ project_id: A.id });
    const tg = await createTarget(i.id);
    const issue = await insertIssue(t, org.id, A.id);
    await org.owner.http
      .post(`${targets(i.id)}/${tg.id}/issues`)
      .send({ issue_id: issue.id })
      .expect(201);
    await org.owner.http.delete(ini(i.id)).expect(200);
    const rows: unknown[] = await t.db.query('SELECT 1 FROM initiative_target_issues WHERE org_id = $1 AND target_id = $2', [org.id, tg.id]);
    expect(rows).toHaveLength(0);
  });

  it('OpenAPI: the target body and response are documented; the issue link POST lists six { error, code } error responses', async () => {
    const doc = (await t.http().get('/api/openapi.json').expect(200)).body;
    const post = doc.paths['/api/orgs/{id}/initiatives/{initiativeId}/targets/{targetId}/issues'].post;
    const errors = ['400', '401', '403', '404', '409', '500'];
    expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(errors));
    for (const s of errors) {
      const ref: string = post.responses[s].content['application/json'].schema.$ref;
      const schema = doc.components.schemas[ref.split('/').pop()!];
      expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['error', 'code']));
    }
    const target = doc.components.schemas.TargetResponse;
    expect(Object.keys(target.properties)).toEqual(
      expect.arrayContaining(['mode', 'due_soon_days', 'due_state', 'progress', 'scope', 'issueIds', 'milestoneIds']),
    );
    expect(target.properties.due_state.description).toMatch(/due_soon/);
    expect(Object.keys(doc.components.schemas.CreateTargetDto.properties)).toEqual(
      expect.arrayContaining(['title', 'mode', 'current_value', 'target_value', 'due_soon_days', 'scope']),
    );
    for (const p of [
      '/api/orgs/{id}/initiatives',
      '/api/orgs/{id}/initiatives/{initiativeId}/targets/{targetId}/milestones',
      '/api/orgs/{id}/issues/{issueId}/initiatives/{initiativeId}',
    ]) {
      expect(doc.paths[p]).toBeDefined();
    }
  });
});
