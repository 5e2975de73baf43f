import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../support/app';
import { addMember, bearer, newAgent, newOrg, newProject, newUser, randomId, type TestOrg, type TestUser, uniq } from '../support/factories';

/**
 * issues-core: create (single, bulk), detail by any reference form, update, archive and delete,
 * with access (404 concealment, 403 view-only), validation (never 5xx) and gap-free numbering.
 */
describe('issues-core', () => {
  let t: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  let admin: TestUser;
  let member: TestUser;
  let editor: TestUser;
  let guest: TestUser;
  let ids: { admin: string; member: string; editor: string; guest: string };
  let proj: { id: string; key: string };
  let secret: { id: string; key: string };
  const url = (p = '') => `/api/orgs/${org.id}/issues${p}`;
  const create = async (body: Record<string, unknown>, who: TestUser = org.owner) => {
    const res = await who.http.post(url()).send(body);
    if (res.status !== 201) throw new Error(`create ${JSON.stringify(body).slice(0, 200)} -> ${res.status} ${res.text.slice(0, 300)}`);
    return res.body.issue;
  };
  const grant = (projectId: string, memberId: string, accessLevel: 'view' | 'edit' | 'admin') =>
    org.owner.http.post(`/api/orgs/${org.id}/projects/${projectId}/members`).send({ memberId, accessLevel }).expect(201);

  beforeAll(async () => {
    t = await startTestApp();
    org = await newOrg(t);
    other = await newOrg(t);
    [admin, member, editor, guest] = await Promise.all(['admin', 'member', 'editor', 'guest'].map((n) => newUser(t, n)));
    ids = {
      admin: await addMember(t, org, admin, 'admin'),
      member: await addMember(t, org, member, 'member'),
      editor: await addMember(t, org, editor, 'member'),
      guest: await addMember(t, org, guest, 'guest'),
    };
    proj = await newProject(t, org);
    secret = await newProject(t, org);
    await grant(proj.id, ids.editor, 'edit');
    await grant(proj.id, ids.guest, 'edit');
  });
  afterAll(() => t.close());

  describe('create', () => {
    it('201 { issue } with the full snake_case record, defaults backlog/2 and a trimmed title', async () => {
      const i = await create({ title: '  First  ', projectId: proj.id });
      expect(i).toMatchObject({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        number: expect.any(Number),
        identifier: `${proj.key}-${i.number}`,
        projectSlug: expect.any(String),
        title: 'First',
        description: null,
        status: 'backlog',
        priority: 2,
        project_id: proj.id,
        assignee_id: null,
        assignee_ids: [],
        team_id: null,
        milestone_id: null,
        parent_id: null,
        start_date: null,
        due_date: null,
        label_ids: [],
        created_by: org.ownerMemberId,
        archived: false,
        archived_at: null,
        completed_at: null,
      });
      expect(new Date(i.created_at).toISOString()).toBe(i.created_at);
      expect(JSON.stringify(i)).not.toMatch(/next_run|nextRun/i);
    });

    it('accepts the snake_case aliases and every field', async () => {
      const label = (
        await org.owner.http
          .post(`/api/orgs/${org.id}/labels`)
          .send({ name: uniq('l') })
          .expect(201)
      ).body.label;
      const teamId = randomUUID();
      await t.db.query('INSERT INTO teams (org_id, id, name, slug) VALUES ($1, $2, $3, $4)', [org.id, teamId, 'T', uniq('team').toLowerCase()]);
      const milestoneId = randomUUID();
      await t.db.query('INSERT INTO milestones (org_id, id, project_id, name) VALUES ($1, $2, $3, $4)', [org.id, milestoneId, proj.id, uniq('ms')]);
      const i = await create({
        title: 'aliases',
        project_id: proj.id,
        assignee_ids: [ids.member, org.ownerMemberId],
        team_id: teamId,
        milestone_id: milestoneId,
        start_date: '2031-01-01',
        due_date: '2031-02-28',
        label_ids: [label.id],
        status: 'todo',
        priority: 0,
        description: 'desc',
      });
      expect(i).toMatchObject({
        project_id: proj.id,
        assignee_id: ids.member,
        assignee_ids: [ids.member, org.ownerMemberId],
        team_id: teamId,
        milestone_id: milestoneId,
        start_date: '2031-01-01',
        due_date: '2031-02-28',
        label_ids: [label.id],
        status: 'todo',
        priority: 0,
        description: 'desc',
      });
      const single = await create({ title: 'one', projectId: proj.id, assigneeId: ids.editor });
      expect(single).toMatchObject({ assignee_id: ids.editor, assignee_ids: [ids.editor] });
    });

    it('status: built-ins and the project’s own column keys; done sets completed_at', async () => {
      await org.owner.http.post(`/api/orgs/${org.id}/projects/${proj.id}/board-columns`).send({ key: 'review', label: 'Review' });
      const cols = (await org.owner.http.get(`/api/orgs/${org.id}/projects/${proj.id}/board-columns`).expect(200)).body;
      const keys: string[] = (cols.columns ?? cols.board_columns ?? cols.items ?? []).map((c: { key: string }) => c.key);
      if (keys.includes('review')) expect((await create({ title: 'r', projectId: proj.id, status: 'review' })).status).toBe('review');
      const d = await create({ title: 'done', projectId: proj.id, status: 'done' });
      expect(d.completed_at).not.toBeNull();
      expect((await create({ title: 'c', projectId: proj.id, status: 'cancelled' })).status).toBe('cancelled');
      await org.owner.http.post(url()).send({ title: 'x', status: 'review' }).expect(400); // projectless: built-ins only
      await org.owner.http.post(url()).send({ title: 'x', projectId: proj.id, status: 'DONE' }).expect(400);
    });

    it('projectless issues use the organization sequence; identifier and projectSlug are null', async () => {
      const a = await create({ title: 'pl-a' });
      const b = await create({ title: 'pl-b', projectId: null });
      expect(a).toMatchObject({ project_id: null, identifier: null, projectSlug: null });
      expect(b.number).toBe(a.number + 1);
    });

    it('validation: 400 for bad fields (never 5xx), with real calendar dates and start ≤ due', async () => {
      const P = proj.id;
      const u = randomUUID();
      const big = 'x'.repeat(300000);
      const bad: Array<Record<string, unknown>> = [
        { projectId: P },
        { title: 123, projectId: P },
        { title: null, projectId: P },
        { title: '   ', projectId: P },
        { title: 'x'.repeat(501), projectId: P },
        { title: '\u0000\u0001', projectId: P },
        { title: 'a\ud800b', projectId: P }, // lone surrogates were stored as U+FFFD and lost their activity entry
        { title: 'ok', description: 'x\udc00', projectId: P },
        { title: '😀'.repeat(3000), projectId: P },
        { title: 'd', description: 123, projectId: P },
        { title: 'd', description: big, projectId: P },
        { title: 's', status: 'bogus', projectId: P },
        { title: 's', status: ['todo'], projectId: P },
        { title: 'p', priority: -1, projectId: P },
        { title: 'p', priority: 4, projectId: P },
        { title: 'p', priority: 1.5, projectId: P },
        { title: 'p', priority: 'high', projectId: P },
        { title: 'p', projectId: 'not-a-uuid' },
        { title: 'p', projectId: 123 },
        { title: 'a', assigneeId: 'x', projectId: P },
        { title: 'a', assigneeId: u, projectId: P },
        { title: 'a', assigneeIds: 'x', projectId: P },
        { title: 'a', assigneeIds: [1, 2], projectId: P },
        { title: 'a', assigneeIds: [u], projectId: P },
        { title: 'a', assigneeIds: { 0: u }, projectId: P },
        { title: 'd', dueDate: '2024-02-30', projectId: P },
        { title: 'd', dueDate: '2023-02-29', projectId: P },
        { title: 'd', dueDate: '2024-13-01', projectId: P },
        { title: 'd', dueDate: 'tomorrow', projectId: P },
        { title: 'd', dueDate: 20240101, projectId: P },
        { title: 'd', dueDate: '', projectId: P },
        { title: 'd', startDate: '0000-00-00', projectId: P },
        { title: 'd', startDate: '2024-01-01T25:61:00Z', projectId: P },
        { title: 'd', startDate: '2024-03-02', dueDate: '2024-03-01', projectId: P },
        { title: 'l', labelIds: [123], projectId: P },
        { title: 'l', labelIds: 'x', projectId: P },
        { title: 'l', labelIds: [u], projectId: P },
        { title: 'm', milestoneId: 'x', projectId: P },
        { title: 'm', milestoneId: u, projectId: P },
        { title: 't', teamId: 'x', projectId: P },
        { title: 't', teamId: u, projectId: P },
        { title: 'x', assigneeId: ids.member, assignee_id: ids.editor, projectId: P },
      ];
      for (const body of bad) {
        const res = await org.owner.http.post(url()).send(body);
        if (res.status !== 400) throw new Error(`${JSON.stringify(body).slice(0, 120)} -> ${res.status} ${res.text.slice(0, 200)}`);
        expect(res.body.error).toEqual(expect.any(String));
      }
      expect((await create({ title: 'leap', projectId: P, dueDate: '2024-02-29' })).due_date).toBe('2024-02-29');
      await org.owner.http.post(url()).send({ title: 'p', projectId: u }).expect(404);
      const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
      await org.owner.http.post(url()).set('content-type', 'application/json').send(`{"title":"deep","x":${deep}}`).expect(400); // too deep, even unknown
      await org.owner.http.post(url()).set('content-type', 'application/json').send(`{"title":"deep","assigneeIds":${deep}}`).expect(400);
      for (const raw of ['{"title": ', 'null', '[]', '"s"', '12']) {
        await org.owner.http.post(url()).set('content-type', 'application/json').send(raw).expect(400);
      }
    });

    it('a milestone of another project, and a member of another organization, are refused and never applied', async () => {
      const ms = randomUUID();
      await t.db.query('INSERT INTO milestones (org_id, id, project_id, name) VALUES ($1, $2, $3, $4)', [org.id, ms, secret.id, uniq('ms')]);
      await org.owner.http.post(url()).send({ title: 'm', projectId: proj.id, milestoneId: ms }).expect(400);
      await org.owner.http.post(url()).send({ title: 'm', milestoneId: ms }).expect(400);
      const res = await org.owner.http
        .post(url())
        .send({ title: 'foreign', projectId: proj.id, assigneeIds: [other.ownerMemberId] })
        .expect(400);
      expect(res.body.error).toMatch(/assignee/i);
      const rows = await t.db.query('SELECT 1 FROM issues WHERE org_id = $1 AND title = $2', [org.id, 'foreign']);
      expect(rows).toHaveLength(0);
    });

    it('assignees must be able to read the project: a guest without access is refused, a guest with access is fine', async () => {
      const outsider = await newUser(t, 'g2');
      const g2 = await addMember(t, org, outsider, 'guest');
      await org.owner.http
        .post(url())
        .send({ title: 'g', projectId: proj.id, assigneeIds: [g2] })
        .expect(400);
      await org.owner.http
        .post(url())
        .send({ title: 'g', assigneeIds: [ids.guest] })
        .expect(400); // projectless: non-guests
      expect((await create({ title: 'g', projectId: proj.id, assigneeIds: [ids.guest] })).assignee_ids).toEqual([ids.guest]);
    });

    it('access: 401 without auth; view-only member 403; edit entry 201; unreadable project 404; guests cannot create projectless', async () => {
      await t.http().post(url()).send({ title: 'x', projectId: proj.id }).expect(401);
      await member.http.post(url()).send({ title: 'x', projectId: proj.id }).expect(403);
      await create({ title: 'by editor', projectId: proj.id }, editor);
      await guest.http.post(url()).send({ title: 'x', projectId: secret.id }).expect(404);
      await create({ title: 'by guest', projectId: proj.id }, guest);
      const g = await guest.http.post(url()).send({ title: 'x' });
      expect([403, 404]).toContain(g.status);
      await create({ title: 'projectless by member' }, member);
      await other.owner.http.post(url()).send({ title: 'x', projectId: proj.id }).expect(404);
      await other.owner.http.post(`/api/orgs/${other.id}/issues`).send({ title: 'x', projectId: proj.id }).expect(404);
    });

    it('agents: a project-scoped agent (guest with edit) creates in its project only; an organization agent creates projectless', async () => {
      const scoped = bearer(t, (await newAgent(t, org, { projectIds: [proj.id] })).key);
      const i = (await scoped.post(url()).send({ title: 'agent issue', projectId: proj.id }).expect(201)).body.issue;
      expect(i.created_by).not.toBe(org.ownerMemberId);
      await scoped.post(url()).send({ title: 'x', projectId: secret.id }).expect(404);
      expect([403, 404]).toContain((await scoped.post(url()).send({ title: 'x' })).status);
      const orgAgent = bearer(t, (await newAgent(t, org, {})).key);
      expect((await orgAgent.post(url()).send({ title: 'agent projectless' }).expect(201)).body.issue.project_id).toBeNull();
      await orgAgent.post(url()).send({ title: 'x', projectId: proj.id }).expect(403);
    });
  });

  describe('numbering', () => {
    it('20 parallel creates in one project get exactly 1..20', async () => {
      const p = await newProject(t, org);
      const res = await Promise.all(Array.from({ length: 20 }, (_, n) => org.owner.http.post(url()).send({ title: `par ${n}`, projectId: p.id })));
      for (const r of res) expect(r.status).toBe(201);
      expect(res.map((r) => r.body.issue.number).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, n) => n + 1));
    });

    it('a failed create (invalid assignee, plan limit 402) leaves no gap', async () => {
      const o2 = await newOrg(t);
      const p = await newProject(t, o2);
      const u2 = `/api/orgs/${o2.id}/issues`;
      expect((await o2.owner.http.post(u2).send({ title: 'a', projectId: p.id }).expect(201)).body.issue.number).toBe(1);
      await o2.owner.http
        .post(u2)
        .send({ title: 'b', projectId: p.id, assigneeIds: [randomId()] })
        .expect(400);
      expect((await o2.owner.http.post(u2).send({ title: 'c', projectId: p.id }).expect(201)).body.issue.number).toBe(2);
      // free plan: 250 active issues; fill up with rows in another sequence
      await t.db.query(`UPDATE organizations SET plan = 'free' WHERE id = $1`, [o2.id]);
      await t.db.query(
        `INSERT INTO issues (org_id, id, project_id, number, title, status) SELECT $1, gen_random_uuid(), NULL, 1000 + g, 'fill', 'todo' FROM generate_series(1, 248) g`,
        [o2.id],
      );
      const res = await o2.owner.http.post(u2).send({ title: 'd', projectId: p.id }).expect(402);
      expect(res.body).toMatchObject({ code: 'PLAN_LIMIT_REACHED', resource: 'activeIssues', limit: 250, usage: 250 });
      await t.db.query(`UPDATE organizations SET plan = 'unlimited' WHERE id = $1`, [o2.id]);
      expect((await o2.owner.http.post(u2).send({ title: 'e', projectId: p.id }).expect(201)).body.issue.number).toBe(3);
    });
  });

  describe('bulk', () => {
    it('201 { issues, count } in one transaction', async () => {
      const res = await org.owner.http
        .post(url('/bulk'))
        .send({ issues: [{ title: 'b1', projectId: proj.id }, { title: 'b2', project_id: proj.id, priority: 1 }, { title: 'b3' }] })
        .expect(201);
      expect(res.body.count).toBe(3);
      expect(res.body.issues.map((i: { title: string }) => i.title)).toEqual(['b1', 'b2', 'b3']);
      expect(res.body.issues[1].number).toBe(res.body.issues[0].number + 1);
    });

    it('all or nothing: one invalid item creates nothing and consumes no number', async () => {
      const p = await newProject(t, org);
      const res = await org.owner.http
        .post(url('/bulk'))
        .send({
          issues: [
            { title: 'ok', projectId: p.id },
            { title: 'bad', projectId: p.id, priority: 9 },
          ],
        })
        .expect(400);
      expect(res.body.error).toMatch(/issues\[1\]/);
      await org.owner.http
        .post(url('/bulk'))
        .send({
          issues: [
            { title: 'ok', projectId: p.id },
            { title: 'bad', projectId: p.id, assigneeIds: [randomId()] },
          ],
        })
        .expect(400);
      const rows = await t.db.query('SELECT count(*)::int AS n FROM issues WHERE org_id = $1 AND project_id = $2', [org.id, p.id]);
      expect(rows[0].n).toBe(0);
      expect((await create({ title: 'first', projectId: p.id })).number).toBe(1);
    });

    it('400 for not an array, empty, non-object items and more than 50; 403 when any target is view-only', async () => {
      for (const body of [
        {},
        { issues: 'x' },
        { issues: [] },
        { issues: [1, 2] },
        { issues: Array.from({ length: 51 }, (_, n) => ({ title: `b${n}`, projectId: proj.id })) },
      ]) {
        await org.owner.http.post(url('/bulk')).send(body).expect(400);
      }
      await org.owner.http
        .post(url('/bulk'))
        .send({ issues: Array.from({ length: 50 }, (_, n) => ({ title: `fifty ${n}` })) })
        .expect(201);
      await editor.http
        .post(url('/bulk'))
        .send({
          issues: [
            { title: 'a', projectId: proj.id },
            { title: 'b', projectId: secret.id },
          ],
        })
        .expect(403);
      await t
        .http()
        .post(url('/bulk'))
        .send({ issues: [{ title: 'a' }] })
        .expect(401);
    });
  });

  describe('detail and references', () => {
    it('detail adds creator, assignee(s), labels, milestone, sub_tasks and isBlocked', async () => {
      const i = await create({ title: 'detail', projectId: proj.id, assigneeIds: [org.ownerMemberId, ids.member] });
      const d = (await org.owner.http.get(url(`/${i.id}`)).expect(200)).body.issue;
      expect(d).toMatchObject({
        id: i.id,
        creator: { id: org.ownerMemberId, display_name: org.owner.name, type: 'human' },
        assignee: { id: org.ownerMemberId },
        labels: [],
        milestone: null,
        issue_labels: [],
        sub_tasks: [],
        isBlocked: false,
      });
      expect(d.assignees.map((a: { id: string }) => a.id)).toEqual([org.ownerMemberId, ids.member]);
      expect(d).not.toHaveProperty('artifact_manifest');
      const withManifest = (await org.owner.http.get(url(`/${i.id}?include=artifact_manifest`)).expect(200)).body.issue;
      expect(withManifest.artifact_manifest).toEqual([]);
      await org.owner.http.get(url(`/${i.id}?include=comments`)).expect(400);
      await org.owner.http.get(url(`/${i.id}?include=artifact_manifest,artifact_manifest`)).expect(400);
    });

    it('resolves UUID, PROJECTKEY-n (any case), #n, bare n, TSK-n and ORGPREFIX-n when unique', async () => {
      const o3 = await newOrg(t);
      const p = await newProject(t, o3);
      const i = (await o3.owner.http.post(`/api/orgs/${o3.id}/issues`).send({ title: 'only', projectId: p.id }).expect(201)).body.issue;
      for (const ref of [
        i.id,
        i.id.toUpperCase(),
        `${p.key}-1`,
        `${p.key.toLowerCase()}-1`,
        '#1',
        '1',
        'TSK-1',
        `${o3.prefix}-1`,
        `${o3.prefix.toLowerCase()}-1`,
      ]) {
        const res = await o3.owner.http.get(`/api/orgs/${o3.id}/issues/${encodeURIComponent(ref)}`);
        if (res.status !== 200) throw new Error(`${ref} -> ${res.status} ${res.text}`);
        expect(res.body.issue.id).toBe(i.id);
      }
    });

    it('number forms match every accessible issue: 409 ambiguous_reference lists only readable candidates', async () => {
      const o4 = await newOrg(t);
      const g = await newUser(t, 'gg');
      const gId = await addMember(t, o4, g, 'guest');
      const a = await newProject(t, o4);
      const b = await newProject(t, o4);
      const c = await newProject(t, o4);
      const base = `/api/orgs/${o4.id}/issues`;
      const mk = async (body: Record<string, unknown>) => (await o4.owner.http.post(base).send(body).expect(201)).body.issue;
      const ia = await mk({ title: 'in a', projectId: a.id });
      const ib = await mk({ title: 'in b', projectId: b.id });
      const ic = await mk({ title: 'hidden title', projectId: c.id });
      const pl = await mk({ title: 'projectless' });
      expect([ia.number, ib.number, ic.number, pl.number]).toEqual([1, 1, 1, 1]);
      const amb = await o4.owner.http.get(`${base}/%231`).expect(409);
      expect(amb.body).toMatchObject({ code: 'ambiguous_reference', reference: '#1' });
      expect(amb.body.candidates).toHaveLength(4);
      expect(amb.body.candidates).toContainEqual({ id: ia.id, identifier: `${a.key}-1`, title: 'in a' });
      expect(amb.body.candidates).toContainEqual({ id: pl.id, identifier: null, title: 'projectless' });
      // a guest who reads a and b sees two candidates (never c's title, never projectless)
      await o4.owner.http.post(`/api/orgs/${o4.id}/projects/${a.id}/members`).send({ memberId: gId, accessLevel: 'view' }).expect(201);
      await o4.owner.http.post(`/api/orgs/${o4.id}/projects/${b.id}/members`).send({ memberId: gId, accessLevel: 'view' }).expect(201);
      const ga = await g.http.get(`${base}/1`).expect(409);
      expect(ga.body.candidates.map((x: { id: string }) => x.id).sort()).toEqual([ia.id, ib.id].sort());
      expect(ga.text).not.toContain('hidden title');
      expect(ga.text).not.toContain(ic.id);
      // with only a readable, the filter happens before uniqueness: unique
      await o4.owner.http.delete(`/api/orgs/${o4.id}/projects/${b.id}/members?memberId=${gId}`).expect(200);
      expect((await g.http.get(`${base}/TSK-1`).expect(200)).body.issue.id).toBe(ia.id);
      expect((await g.http.get(`${base}/${a.key}-1`).expect(200)).body.issue.id).toBe(ia.id);
      const hidden = await g.http.get(`${base}/${c.key}-1`).expect(404);
      expect(hidden.body).toMatchObject({ code: 'reference_not_found' });
      expect(hidden.text).not.toContain('hidden title');
      await g.http.get(`${base}/${ic.id}`).expect(404);
      await g.http.get(`${base}/${pl.id}`).expect(404);
    });

    it('a project key equal to the organization prefix means the project first', async () => {
      const o5 = await newOrg(t);
      const base = `/api/orgs/${o5.id}/issues`;
      const pl = (await o5.owner.http.post(base).send({ title: 'pl' }).expect(201)).body.issue;
      expect((await o5.owner.http.get(`${base}/${o5.prefix}-1`).expect(200)).body.issue.id).toBe(pl.id);
      const p = await newProject(t, o5, uniq('Same'), o5.prefix);
      const res = await o5.owner.http.get(`${base}/${o5.prefix}-1`).expect(404);
      expect(res.body.code).toBe('reference_not_found');
      const pi = (await o5.owner.http.post(base).send({ title: 'pi', projectId: p.id }).expect(201)).body.issue;
      expect((await o5.owner.http.get(`${base}/${o5.prefix}-1`).expect(200)).body.issue.id).toBe(pi.id);
      await o5.owner.http.get(`${base}/TSK-1`).expect(409);
    });

    it('invalid 400 with accepted_forms; missing 404 reference_not_found; titles never match', async () => {
      const titled = await create({ title: 'ZqUniqueTitle', projectId: proj.id });
      for (const ref of ['!!!', `${proj.key}-x1`, '#abc', 'ZqUniqueTitle', 'Zq', '-1', '1.5', '%23', `${proj.key}-`, 'a'.repeat(90), "' OR '1'='1"]) {
        const res = await org.owner.http.get(url(`/${encodeURIComponent(ref)}`));
        if (res.status !== 400) throw new Error(`${ref} -> ${res.status}`);
        expect(res.body).toMatchObject({ code: 'invalid_reference', accepted_forms: expect.any(Array) });
      }
      expect(titled.id).toBeDefined();
      for (const ref of [`${proj.key}-9999999`, '#9999999', 'TSK-99999999999999999999', 'NOPE-1', '0']) {
        const res = await org.owner.http.get(url(`/${encodeURIComponent(ref)}`));
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ code: 'reference_not_found', reference: ref });
      }
      await org.owner.http.get(url(`/${randomUUID()}`)).expect(404);
    });

    it('concealment: another organization’s issue by UUID and by number; 401 without auth', async () => {
      const theirs = (await other.owner.http.post(`/api/orgs/${other.id}/issues`).send({ title: 'their secret' }).expect(201)).body.issue;
      await org.owner.http.get(url(`/${theirs.id}`)).expect(404);
      await other.owner.http.get(url(`/${theirs.id}`)).expect(404);
      const byNumber = await org.owner.http.get(url(`/${other.prefix}-${theirs.number}`));
      expect(byNumber.text).not.toContain('their secret');
      expect(byNumber.text).not.toContain(theirs.id);
      await t
        .http()
        .get(url(`/${theirs.id}`))
        .expect(401);
    });
  });

  describe('update', () => {
    it('updates fields; 200 { issue }; read-only fields sent back are a 400 naming each, nothing changed', async () => {
      const i = await create({ title: 'u', projectId: proj.id, priority: 3 });
      const readOnly = await org.owner.http
        .patch(url(`/${i.id}`))
        .send({ title: 'not applied', id: randomUUID(), number: 999, org_id: other.id, created_by: ids.member })
        .expect(400);
      expect(readOnly.body.details.map((d: { field: string }) => d.field)).toEqual(['id', 'number', 'org_id', 'created_by']);
      expect(readOnly.body.error).toContain('`org_id` is not a field');
      const res = await org.owner.http
        .patch(url(`/${i.id}`))
        .send({ title: ' new ', status: 'in_progress', priority: 0, description: 'd', due_date: '2031-01-02' })
        .expect(200);
      expect(res.body.issue).toMatchObject({
        id: i.id,
        number: i.number,
        title: 'new',
        status: 'in_progress',
        priority: 0,
        description: 'd',
        due_date: '2031-01-02',
        created_by: org.ownerMemberId,
      });
      const d = (await org.owner.http.get(url(`/${i.id}`)).expect(200)).body.issue;
      expect(d).toMatchObject({ title: 'new', status: 'in_progress' });
    });

    it('assigneeIds replaces the set (first is primary); assigneeId null clears; invalid never applied', async () => {
      const i = await create({ title: 'a', projectId: proj.id, assigneeIds: [org.ownerMemberId, ids.member] });
      let r = (
        await org.owner.http
          .patch(url(`/${i.id}`))
          .send({ assigneeIds: [ids.editor, ids.member] })
          .expect(200)
      ).body.issue;
      expect(r).toMatchObject({ assignee_id: ids.editor, assignee_ids: [ids.editor, ids.member] });
      await org.owner.http
        .patch(url(`/${i.id}`))
        .send({ assigneeIds: [ids.editor, other.ownerMemberId] })
        .expect(400);
      r = (await org.owner.http.get(url(`/${i.id}`)).expect(200)).body.issue;
      expect(r.assignee_ids).toEqual([ids.editor, ids.member]);
      r = (
        await org.owner.http
          .patch(url(`/${i.id}`))
          .send({ assigneeId: null })
          .expect(200)
      ).body.issue;
      expect(r).toMatchObject({ assignee_id: null, assignee_ids: [] });
      r = (
        await org.owner.http
          .patch(url(`/${i.id}`))
          .send({ assignee_id: ids.member })
          .expect(200)
      ).body.issue;
      expect(r).toMatchObject({ assignee_id: ids.member, assignee_ids: [ids.member] });
    });

    it('labelIds on update is 400; dates are checked against the stored values', async () => {
      const i = await create({ title: 'l', projectId: proj.id, dueDate: '2031-01-10' });
      const res = await org.owner.http
        .patch(url(`/${i.id}`))
        .send({ labelIds: [] })
        .expect(400);
      expect(res.body.error).toMatch(/label endpoints/);
      await org.owner.http
        .patch(url(`/${i.id}`))
        .send({ startDate: '2031-01-11' })
        .expect(400);
      await org.owner.http
        .patch(url(`/${i.id}`))
        .send({ startDate: '2031-01-09' })
        .expect(200);
      await org.owner.http
        .patch(url(`/${i.id}`))
        .send({ dueDate: null })
        .expect(200);
    });

    it('done sets completed_at and leaving done clears it', async () => {
      const i = await create({ title: 'c', projectId: proj.id });
      const d = (
        await org.owner.http
          .patch(url(`/${i.id}`))
          .send({ status: 'done' })
          .expect(200)
      ).body.issue;
      expect(d.completed_at).not.toBeNull();
      const back = (
        await org.owner.http
          .patch(url(`/${i.id}`))
          .send({ status: 'todo' })
          .expect(200)
      ).body.issue;
      expect(back.completed_at).toBeNull();
    });

    it('project move: target needs edit, status must exist there, number from the new sequence', async () => {
      const target = await newProject(t, org);
      const i = await create({ title: 'mv', projectId: proj.id }, editor);
      await editor.http
        .patch(url(`/${i.id}`))
        .send({ projectId: target.id })
        .expect(403);
      await editor.http
        .patch(url(`/${i.id}`))
        .send({ projectId: randomUUID() })
        .expect(404);
      const moved = (
        await org.owner.http
          .patch(url(`/${i.id}`))
          .send({ projectId: target.id })
          .expect(200)
      ).body.issue;
      expect(moved).toMatchObject({ project_id: target.id, number: 1, identifier: `${target.key}-1` });
      const pl = (
        await org.owner.http
          .patch(url(`/${i.id}`))
          .send({ projectId: null })
          .expect(200)
      ).body.issue;
      expect(pl).toMatchObject({ project_id: null, identifier: null });
      const withCol = await newProject(t, org);
      await org.owner.http.post(`/api/orgs/${org.id}/projects/${withCol.id}/board-columns`).send({ key: 'qa', label: 'QA' });
      const hasQa = ((await org.owner.http.get(`/api/orgs/${org.id}/projects/${withCol.id}/board-columns`)).text ?? '').includes('"qa"');
      if (hasQa) {
        const q = await create({ title: 'qa', projectId: withCol.id, status: 'qa' });
        await org.owner.http
          .patch(url(`/${q.id}`))
          .send({ projectId: target.id })
          .expect(400);
        expect(
          (
            await org.owner.http
              .patch(url(`/${q.id}`))
              .send({ projectId: target.id, status: 'todo' })
              .expect(200)
          ).body.issue.status,
        ).toBe('todo');
      }
    });

    it('project move of a blocking issue needs dependencyReleaseMappings (aliases) to columns of the new project; isBlocked in detail', async () => {
      const from = await newProject(t, org);
      const to = await newProject(t, org);
      const blocker = await create({ title: 'blocker', projectId: from.id });
      const blocked = await create({ title: 'blocked', projectId: from.id });
      const dep = await org.owner.http.post(url(`/${blocked.id}/dependencies`)).send({ blockedByIssueId: blocker.id });
      expect(dep.status).toBe(201);
      const depId = dep.body.dependency.id;
      expect((await org.owner.http.get(url(`/${blocked.id}`)).expect(200)).body.issue.isBlocked).toBe(true);
      await org.owner.http
        .patch(url(`/${blocker.id}`))
        .send({ projectId: to.id })
        .expect(400);
      await org.owner.http
        .patch(url(`/${blocker.id}`))
        .send({ projectId: null })
        .expect(400);
      const cols = await t.db.query(`SELECT id FROM board_columns WHERE org_id = $1 AND project_id = $2 AND key = 'done'`, [org.id, to.id]);
      const wrong = await t.db.query(`SELECT id FROM board_columns WHERE org_id = $1 AND project_id = $2 AND key = 'done'`, [org.id, from.id]);
      await org.owner.http
        .patch(url(`/${blocker.id}`))
        .send({ projectId: to.id, releaseColumnMappings: [{ dependencyId: depId, releaseColumnId: wrong[0].id }] })
        .expect(400);
      expect((await org.owner.http.get(url(`/${blocker.id}`)).expect(200)).body.issue.project_id).toBe(from.id);
      const moved = await org.owner.http
        .patch(url(`/${blocker.id}`))
        .send({ projectId: to.id, dependency_release_mappings: [{ dependency_id: depId, release_column_id: cols[0].id }] })
        .expect(200);
      expect(moved.body.issue).toMatchObject({ project_id: to.id, number: 1 });
      const rc = await t.db.query('SELECT release_column_id FROM issue_dependencies WHERE org_id = $1 AND id = $2', [org.id, depId]);
      expect(rc[0].release_column_id).toBe(cols[0].id);
      await org.owner.http
        .patch(url(`/${blocker.id}`))
        .send({ status: 'done' })
        .expect(200);
      expect((await org.owner.http.get(url(`/${blocked.id}`)).expect(200)).body.issue.isBlocked).toBe(false);
    });

    it('access: 401, view-only 403, unreadable 404, other organization 404, non-UUID 404', async () => {
      const i = await create({ title: 'acc', projectId: secret.id });
      const j = await create({ title: 'acc2', projectId: proj.id });
      await t
        .http()
        .patch(url(`/${j.id}`))
        .send({ title: 'x' })
        .expect(401);
      await member.http
        .patch(url(`/${j.id}`))
        .send({ title: 'x' })
        .expect(403);
      await guest.http
        .patch(url(`/${i.id}`))
        .send({ title: 'x' })
        .expect(404);
      await other.owner.http.patch(`/api/orgs/${other.id}/issues/${j.id}`).send({ title: 'x' }).expect(404);
      // any reference form addresses the issue; a missing one is 404 reference_not_found
      expect(
        (
          await org.owner.http
            .patch(url(`/${proj.key}-${j.number}`))
            .send({ title: 'by key' })
            .expect(200)
        ).body.issue.id,
      ).toBe(j.id);
      expect(
        (
          await org.owner.http
            .patch(url(`/${proj.key}-9999999`))
            .send({ title: 'x' })
            .expect(404)
        ).body.code,
      ).toBe('reference_not_found');
      expect((await org.owner.http.patch(url('/not-a-uuid')).send({ title: 'x' }).expect(400)).body.code).toBe('invalid_reference');
      const pl = await create({ title: 'pl' });
      await guest.http
        .patch(url(`/${pl.id}`))
        .send({ title: 'x' })
        .expect(404);
      await member.http
        .patch(url(`/${pl.id}`))
        .send({ title: 'member edits projectless' })
        .expect(200);
    });

    it('malformed update bodies are 4xx, never 5xx, and never change the id', async () => {
      const i = await create({ title: 'fuzz', projectId: proj.id });
      const bodies: Array<Record<string, unknown>> = [
        { status: 'bogus' },
        { priority: 9 },
        { assigneeIds: 'x' },
        { comment_body: 123 },
        { comment_body: 'x', comment_mentions: 'x' },
        { dependencyReleaseMappings: 'x' },
        { dependencyReleaseMappings: [{ dependencyId: 'x' }] },
        { projectId: 'x' },
        { title: null },
        { labelIds: [1] },
        { dueDate: '2023-02-29' },
        { comment_body: '<p> </p>' },
        { comment_mentions: [] },
      ];
      for (const body of bodies) {
        const res = await org.owner.http.patch(url(`/${i.id}`)).send(body);
        if (res.status < 400 || res.status >= 500) throw new Error(`${JSON.stringify(body)} -> ${res.status} ${res.text.slice(0, 200)}`);
      }
      for (const body of [
        { comment_body: 'x', comment_mentions: [{ member_id: 5 }] },
        { archived: 'yes' },
        { number: -5 },
        { id: randomUUID() },
        { org_id: randomUUID() },
      ]) {
        const res = await org.owner.http.patch(url(`/${i.id}`)).send(body);
        expect(res.status).toBeLessThan(500);
      }
      const after = (await org.owner.http.get(url(`/${i.id}`)).expect(200)).body.issue;
      expect(after).toMatchObject({ id: i.id, number: i.number, title: 'fuzz', archived: false });
    });
  });

  describe('comment_body on update', () => {
    it('creates a sanitized comment in the same transaction: { issue, comment, mentions, outcome }', async () => {
      const i = await create({ title: 'cb', projectId: proj.id });
      const res = await org.owner.http
        .patch(url(`/${i.id}`))
        .send({
          status: 'in_progress',
          comment_body: '<p>Progress <strong>note</strong></p><script>alert(1)</script>',
          comment_mentions: [{ member_id: ids.member }],
        })
        .expect(200);
      expect(res.body.issue.status).toBe('in_progress');
      expect(res.body.comment).toEqual(expect.objectContaining({ id: expect.any(String) }));
      expect(JSON.stringify(res.body.comment)).toContain('<strong>note</strong>');
      expect(JSON.stringify(res.body.comment)).not.toContain('<script>');
      expect(res.body.mentions).toMatchObject({ requested: 1 });
      expect(res.body.outcome).toEqual({ mentions: res.body.mentions, persistence: { status: 'persisted', comment_id: res.body.comment.id } });
      const rows = await t.db.query('SELECT count(*)::int AS n FROM comments WHERE org_id = $1 AND issue_id = $2', [org.id, i.id]);
      expect(rows[0].n).toBe(1);
    });

    it('an empty comment_body is 400 and rolls back the field changes too', async () => {
      const i = await create({ title: 'cb2', projectId: proj.id });
      const res = await org.owner.http
        .patch(url(`/${i.id}`))
        .send({ title: 'changed', comment_body: '<p> </p>' })
        .expect(400);
      expect(res.body.error).toMatch(/comment_body/);
      expect((await org.owner.http.get(url(`/${i.id}`)).expect(200)).body.issue.title).toBe('cb2');
      await org.owner.http
        .patch(url(`/${i.id}`))
        .send({ comment_mentions: [{ member_id: ids.member }] })
        .expect(400);
      const plain = (
        await org.owner.http
          .patch(url(`/${i.id}`))
          .send({ priority: 1 })
          .expect(200)
      ).body;
      expect(Object.keys(plain)).toEqual(['issue']);
    });
  });

  describe('recurrence and activity', () => {
    it('recurrence fields on create (snake_case too); days in calendar order; the next-run cursor never appears', async () => {
      const res = await org.owner.http
        .post(url())
        .send({
          title: 'sched',
          projectId: proj.id,
          recurrence_type: 'weekly',
          recurrenceDays: ['fri', 'mon', 'wed'],
          recurrenceMaterializationMode: 'schedule',
          recurrenceTime: '09:00',
          recurrenceTimezone: 'Europe/Berlin',
        })
        .expect(201);
      expect(res.body.issue).toMatchObject({ recurrence_type: 'weekly', recurrence_days: ['mon', 'wed', 'fri'], recurrence_materialization_mode: 'schedule' });
      expect(res.body.issue.recurrence_schedule).toMatchObject({ type: 'weekly', days: ['mon', 'wed', 'fri'] });
      const upd = await org.owner.http
        .patch(url(`/${res.body.issue.id}`))
        .send({ priority: 1 })
        .expect(200);
      expect(upd.body.issue).toMatchObject({ recurrence_type: 'weekly', recurrence_days: ['mon', 'wed', 'fri'] });
      const det = await org.owner.http.get(url(`/${res.body.issue.id}`)).expect(200);
      for (const text of [res.text, upd.text, det.text]) expect(text).not.toMatch(/next_?run/i);
      await org.owner.http.post(url()).send({ title: 'r', projectId: proj.id, recurrenceType: 'hourly' }).expect(400);
      await org.owner.http
        .post(url())
        .send({ title: 'r', projectId: proj.id, recurrenceType: 'weekly', recurrenceDays: ['mon'] })
        .expect(400);
    });

    it('moving a completion-mode recurring issue to done creates the next occurrence once', async () => {
      const p = await newProject(t, org);
      const i = await create({ title: 'daily', projectId: p.id, recurrenceType: 'daily', recurrenceInterval: 1, dueDate: '2031-03-10' });
      await org.owner.http
        .patch(url(`/${i.id}`))
        .send({ status: 'done' })
        .expect(200);
      const next = await t.db.query('SELECT number, status, due_date::text AS due FROM issues WHERE org_id = $1 AND recurrence_source_id = $2', [org.id, i.id]);
      expect(next).toHaveLength(1);
      expect(next[0]).toMatchObject({ number: 2, due: '2031-03-11' });
      await org.owner.http
        .patch(url(`/${i.id}`))
        .send({ status: 'todo' })
        .expect(200);
      await org.owner.http
        .patch(url(`/${i.id}`))
        .send({ status: 'done' })
        .expect(200);
      const again = await t.db.query('SELECT count(*)::int AS n FROM issues WHERE org_id = $1 AND recurrence_source_id = $2', [org.id, i.id]);
      expect(again[0].n).toBe(1);
    });

    it('publishes activity after commit: created, updated (sorted changed_fields), assignees, archive', async () => {
      const i = await create({ title: 'act', projectId: proj.id });
      await org.owner.http
        .patch(url(`/${i.id}`))
        .send({ title: 'act2', priority: 0, assigneeIds: [ids.member] })
        .expect(200);
      await org.owner.http.post(url(`/${i.id}/archive`)).expect(200);
      await org.owner.http.delete(url(`/${i.id}/archive`)).expect(200);
      await org.owner.http
        .patch(url(`/${i.id}`))
        .send({ priority: 9 })
        .expect(400);
      let rows: Array<{ action: string; metadata: Record<string, unknown> }> = [];
      for (let n = 0; n < 40; n++) {
        rows = await t.db.query('SELECT action, metadata FROM activity_events WHERE org_id = $1 AND issue_id = $2 ORDER BY created_at, id', [org.id, i.id]);
        if (rows.length >= 5) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      const actions = rows.map((r) => r.action);
      expect(actions).toEqual(expect.arrayContaining(['issue.created', 'issue.updated', 'assignee.added', 'issue.archived', 'issue.unarchived']));
      expect(actions.filter((a) => a === 'issue.updated')).toHaveLength(1);
      const upd = rows.find((r) => r.action === 'issue.updated')!;
      expect(upd.metadata.changed_fields).toEqual(['assignee_id', 'assignee_ids', 'priority', 'title']);
    });
  });

  describe('archive and delete', () => {
    it('archive / unarchive: edit access, idempotent, 200 { issue }', async () => {
      const i = await create({ title: 'arch', projectId: proj.id });
      await member.http.post(url(`/${i.id}/archive`)).expect(403);
      await other.owner.http.post(`/api/orgs/${other.id}/issues/${i.id}/archive`).expect(404);
      const a = (await editor.http.post(url(`/${i.id}/archive`)).expect(200)).body.issue;
      expect(a.archived).toBe(true);
      expect(a.archived_at).not.toBeNull();
      const again = (await editor.http.post(url(`/${i.id}/archive`)).expect(200)).body.issue;
      expect(again.archived_at).toBe(a.archived_at);
      const u = (await editor.http.delete(url(`/${i.id}/archive`)).expect(200)).body.issue;
      expect(u).toMatchObject({ archived: false, archived_at: null });
      await editor.http.delete(url(`/${i.id}/archive`)).expect(200);
      await t
        .http()
        .post(url(`/${i.id}/archive`))
        .expect(401);
    });

    it('unarchiving an open issue counts against the plan (402 at the limit, nothing changed)', async () => {
      const o6 = await newOrg(t);
      const base = `/api/orgs/${o6.id}/issues`;
      const i = (await o6.owner.http.post(base).send({ title: 'a' }).expect(201)).body.issue;
      await o6.owner.http.post(`${base}/${i.id}/archive`).expect(200);
      await t.db.query(`UPDATE organizations SET plan = 'free' WHERE id = $1`, [o6.id]);
      await t.db.query(
        `INSERT INTO issues (org_id, id, project_id, number, title, status) SELECT $1, gen_random_uuid(), NULL, 1000 + g, 'fill', 'todo' FROM generate_series(1, 250) g`,
        [o6.id],
      );
      await o6.owner.http.delete(`${base}/${i.id}/archive`).expect(402);
      expect((await o6.owner.http.get(`${base}/${i.id}`).expect(200)).body.issue.archived).toBe(true);
      await o6.owner.http.post(base).send({ title: 'done one', status: 'done' }).expect(201);
    });

    it('permanent delete: owner/admin only (member 403 even with edit), then 404', async () => {
      const i = await create({ title: 'del', projectId: proj.id });
      await editor.http.delete(url(`/${i.id}`)).expect(403);
      await member.http.delete(url(`/${i.id}`)).expect(403);
      await guest.http.delete(url(`/${(await create({ title: 's', projectId: secret.id })).id}`)).expect(404);
      expect((await admin.http.delete(url(`/${i.id}`)).expect(200)).body).toEqual({ success: true });
      await org.owner.http.get(url(`/${i.id}`)).expect(404);
      await org.owner.http.delete(url(`/${i.id}`)).expect(404);
    });
  });
});
