import { newOrg, newProject, randomId, type TestOrg } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import { withoutDetails } from '../support/errors';

describe('projects: board columns, board views, custom views', () => {
  let t: TestApp;
  let org: TestOrg;
  beforeAll(async () => {
    t = await startTestApp();
    org = await newOrg(t);
  });
  afterAll(() => t.close());

  const url = (projectId: string, rest = '') => `/api/orgs/${org.id}/projects/${projectId}${rest}`;
  const columnsOf = async (projectId: string) => (await org.owner.http.get(url(projectId, '/board-columns')).expect(200)).body;
  let issueNumber = 0;
  const addIssue = (projectId: string, status: string) =>
    t.db.query('INSERT INTO issues (org_id, id, project_id, number, title, status) VALUES ($1, $2, $3, $4, $5, $6)', [
      org.id,
      randomId(),
      projectId,
      ++issueNumber,
      `Issue ${issueNumber}`,
      status,
    ]);

  describe('board columns', () => {
    it('POST appends (201) to the board and the Default board view; accepted_statuses follow', async () => {
      const p = await newProject(t, org);
      const res = await org.owner.http
        .post(url(p.id, '/board-columns'))
        .send({ key: 'review', label: 'In Review', description: 'PR open', color: '#00ff00' })
        .expect(201);
      expect(res.body.column).toMatchObject({
        key: 'review',
        label: 'In Review',
        description: 'PR open',
        color: '#00ff00',
        position: 4,
        issue_count: 0,
        project_id: p.id,
      });
      const body = await columnsOf(p.id);
      expect(body.columns.map((c: any) => c.key)).toEqual(['backlog', 'todo', 'in_progress', 'done', 'review']);
      expect(body.accepted_statuses).toEqual(['backlog', 'todo', 'in_progress', 'done', 'review', 'cancelled']);
      const views = await org.owner.http.get(url(p.id, '/board-views')).expect(200);
      expect(views.body.views[0].column_ids).toEqual(body.columns.map((c: any) => c.id));
    });

    it('POST validation: key format, cancelled, duplicates 409, position refused, label required', async () => {
      const p = await newProject(t, org);
      const dup = await org.owner.http.post(url(p.id, '/board-columns')).send({ key: 'todo', label: 'Again' }).expect(409);
      expect(dup.body.code).toBe('column_key_taken');
      for (const body of [
        { key: 'cancelled', label: 'C' },
        { key: 'Review', label: 'R' },
        { key: '1st', label: 'R' },
        { key: 'has-dash', label: 'R' },
        { key: `a${'b'.repeat(50)}`, label: 'R' },
        { key: 'ok', label: '' },
        { key: 'ok' },
        { label: 'No key' },
        { key: 'ok', label: 'x'.repeat(101) },
        { key: 'ok', label: 'OK', position: 0 },
        { key: 'ok', label: 'OK', position: 99 },
        { key: 'ok', label: 'OK', color: 'green' },
      ]) {
        const r = await org.owner.http.post(url(p.id, '/board-columns')).send(body).expect(400);
        expect(withoutDetails(r.body)).toEqual({ error: expect.any(String), code: 'validation_failed' });
      }
      expect((await columnsOf(p.id)).columns).toHaveLength(4);
    });

    it('PATCH edits label/description/color (null clears); key and position are refused; foreign ids 404', async () => {
      const p = await newProject(t, org);
      const [backlog] = (await columnsOf(p.id)).columns;
      const res = await org.owner.http
        .patch(url(p.id, `/board-columns/${backlog.id}`))
        .send({ label: 'Icebox', description: 'Ideas', color: '#123456' })
        .expect(200);
      expect(res.body.column).toMatchObject({ id: backlog.id, key: 'backlog', label: 'Icebox', description: 'Ideas', color: '#123456', position: 0 });
      const cleared = await org.owner.http
        .patch(url(p.id, `/board-columns/${backlog.id}`))
        .send({ description: null })
        .expect(200);
      expect(cleared.body.column).toMatchObject({ description: null, label: 'Icebox' });
      for (const body of [{ key: 'icebox' }, { position: 2 }, { label: '' }, { label: null }, {}, { color: 'x' }]) {
        await org.owner.http
          .patch(url(p.id, `/board-columns/${backlog.id}`))
          .send(body)
          .expect(400);
      }
      await org.owner.http
        .patch(url(p.id, `/board-columns/${randomId()}`))
        .send({ label: 'x' })
        .expect(404);
      await org.owner.http.patch(url(p.id, '/board-columns/not-a-uuid')).send({ label: 'x' }).expect(404);
    });

    it('PUT reorder: the complete current set with unique non-negative positions, normalized to 0..n-1, atomically', async () => {
      const p = await newProject(t, org);
      const cols = (await columnsOf(p.id)).columns as Array<{ id: string; key: string }>;
      const [a, b, c, d] = cols.map((x) => x.id);
      const bad: unknown[] = [
        {
          columns: [
            { id: a, position: 0 },
            { id: b, position: 1 },
            { id: c, position: 2 },
          ],
        }, // missing one
        {
          columns: [
            { id: a, position: 0 },
            { id: b, position: 1 },
            { id: c, position: 2 },
            { id: d, position: 3 },
            { id: randomId(), position: 4 },
          ],
        }, // extra
        {
          columns: [
            { id: a, position: 0 },
            { id: a, position: 1 },
            { id: c, position: 2 },
            { id: d, position: 3 },
          ],
        }, // duplicate id
        {
          columns: [
            { id: a, position: 0 },
            { id: b, position: 0 },
            { id: c, position: 2 },
            { id: d, position: 3 },
          ],
        }, // duplicate position
        {
          columns: [
            { id: a, position: -1 },
            { id: b, position: 1 },
            { id: c, position: 2 },
            { id: d, position: 3 },
          ],
        },
        {
          columns: [
            { id: a, position: 0.5 },
            { id: b, position: 1 },
            { id: c, position: 2 },
            { id: d, position: 3 },
          ],
        },
        {
          columns: [
            { id: a, position: '0' },
            { id: b, position: 1 },
            { id: c, position: 2 },
            { id: d, position: 3 },
          ],
        },
        {
          columns: [
            { id: 'x', position: 0 },
            { id: b, position: 1 },
            { id: c, position: 2 },
            { id: d, position: 3 },
          ],
        },
        { columns: [] },
        { columns: 'all' },
        { columns: [null, 1, 2, 3] },
        { columns: [[]] }, // arrays inside the array passed the nested validation (a TypeError, 500)
        { columns: [[[]]] },
        { columns: [[{ id: a, position: 0 }], { id: b, position: 1 }, { id: c, position: 2 }, { id: d, position: 3 }] },
        {},
      ];
      for (const body of bad) {
        const r = await org.owner.http
          .put(url(p.id, '/board-columns/reorder'))
          .send(body as object)
          .expect(400);
        expect(r.body.code).toBe('validation_failed');
      }
      // a column of another project is not part of this set
      const other = await newProject(t, org);
      const foreign = (await columnsOf(other.id)).columns[0].id;
      await org.owner.http
        .put(url(p.id, '/board-columns/reorder'))
        .send({
          columns: [
            { id: a, position: 0 },
            { id: b, position: 1 },
            { id: c, position: 2 },
            { id: foreign, position: 3 },
          ],
        })
        .expect(400);
      expect((await columnsOf(p.id)).columns.map((x: any) => x.id)).toEqual([a, b, c, d]);

      const res = await org.owner.http
        .put(url(p.id, '/board-columns/reorder'))
        .send({
          columns: [
            { id: d, position: 10 },
            { id: a, position: 30 },
            { id: c, position: 20 },
            { id: b, position: 40 },
          ],
        })
        .expect(200);
      expect(res.body.columns.map((x: any) => [x.id, x.position])).toEqual([
        [d, 0],
        [c, 1],
        [a, 2],
        [b, 3],
      ]);
      expect(res.body.accepted_statuses).toEqual(['done', 'in_progress', 'backlog', 'todo', 'cancelled']);
      expect((await columnsOf(p.id)).columns.map((x: any) => x.id)).toEqual([d, c, a, b]);
      const views = await org.owner.http.get(url(p.id, '/board-views')).expect(200);
      expect(views.body.views[0].column_ids).toEqual([d, c, a, b]);
      // a swap of two positions (would collide mid-update without the deferred constraint)
      const swap = await org.owner.http
        .put(url(p.id, '/board-columns/reorder'))
        .send({
          columns: [
            { id: d, position: 1 },
            { id: c, position: 0 },
            { id: a, position: 2 },
            { id: b, position: 3 },
          ],
        })
        .expect(200);
      expect(swap.body.columns.map((x: any) => x.id)).toEqual([c, d, a, b]);
    });

    it('DELETE: reassignTo required when issues use the column; moves them atomically; positions compacted; the last column stays', async () => {
      const p = await newProject(t, org);
      const [backlog, todo, inProgress, done] = (await columnsOf(p.id)).columns;
      await addIssue(p.id, 'todo');
      await addIssue(p.id, 'todo');
      await addIssue(p.id, 'done');
      const counts = (await columnsOf(p.id)).columns.map((c: any) => c.issue_count);
      expect(counts).toEqual([0, 2, 0, 1]);

      const needs = await org.owner.http.delete(url(p.id, `/board-columns/${todo.id}`)).expect(400);
      expect(needs.body.error).toMatch(/reassignTo/);
      await org.owner.http.delete(url(p.id, `/board-columns/${todo.id}?reassignTo=${todo.id}`)).expect(400);
      await org.owner.http.delete(url(p.id, `/board-columns/${todo.id}?reassignTo=not-a-uuid`)).expect(400);
      await org.owner.http.delete(url(p.id, `/board-columns/${todo.id}?reassignTo=${randomId()}`)).expect(400);
      const other = await newProject(t, org);
      const foreign = (await columnsOf(other.id)).columns[0].id;
      await org.owner.http.delete(url(p.id, `/board-columns/${todo.id}?reassignTo=${foreign}`)).expect(400);
      expect((await columnsOf(p.id)).columns).toHaveLength(4);

      const res = await org.owner.http.delete(url(p.id, `/board-columns/${todo.id}?reassignTo=${inProgress.id}`)).expect(200);
      expect(res.body).toEqual({ success: true, reassigned_issue_count: 2 });
      const after = await columnsOf(p.id);
      expect(after.columns.map((c: any) => [c.key, c.position, c.issue_count])).toEqual([
        ['backlog', 0, 0],
        ['in_progress', 1, 2],
        ['done', 2, 1],
      ]);
      const statuses = await t.db.query('SELECT status, count(*)::int AS n FROM issues WHERE org_id = $1 AND project_id = $2 GROUP BY status ORDER BY status', [
        org.id,
        p.id,
      ]);
      expect(statuses).toEqual([
        { status: 'done', n: 1 },
        { status: 'in_progress', n: 2 },
      ]);
      const views = await org.owner.http.get(url(p.id, '/board-views')).expect(200);
      expect(views.body.views[0].column_ids).toEqual([backlog.id, inProgress.id, done.id]);

      // unused column: no reassignTo needed
      await org.owner.http.delete(url(p.id, `/board-columns/${backlog.id}`)).expect(200);
      await org.owner.http.delete(url(p.id, `/board-columns/${done.id}?reassign_to=${inProgress.id}`)).expect(200);
      const last = await org.owner.http.delete(url(p.id, `/board-columns/${inProgress.id}`)).expect(409);
      expect(last.body.code).toBe('last_column');
      const final = await columnsOf(p.id);
      expect(final.columns.map((c: any) => [c.key, c.position, c.issue_count])).toEqual([['in_progress', 0, 3]]);
      await org.owner.http.delete(url(p.id, `/board-columns/${randomId()}`)).expect(404);
      await org.owner.http.delete(url(p.id, `/board-columns/${todo.id}`)).expect(404);
    });
  });

  describe('board views', () => {
    it('CRUD with column validation; the default view cannot be deleted', async () => {
      const p = await newProject(t, org);
      const cols = (await columnsOf(p.id)).columns.map((c: any) => c.id);
      const created = await org.owner.http
        .post(url(p.id, '/board-views'))
        .send({ name: 'Active', columnIds: [cols[2], cols[1]] })
        .expect(201);
      expect(created.body.view).toMatchObject({ name: 'Active', is_default: false, column_ids: [cols[2], cols[1]], project_id: p.id });
      const viaAlias = await org.owner.http
        .post(url(p.id, '/board-views'))
        .send({ name: 'Ends', column_ids: [cols[0], cols[3]] })
        .expect(201);
      expect(viaAlias.body.view.column_ids).toEqual([cols[0], cols[3]]);
      const other = await newProject(t, org);
      const foreign = (await columnsOf(other.id)).columns[0].id;
      for (const body of [
        { name: 'X' },
        { name: 'X', columnIds: [] },
        { name: 'X', columnIds: cols[0] },
        { name: 'X', columnIds: [cols[0], cols[0]] },
        { name: 'X', columnIds: ['nope'] },
        { name: 'X', columnIds: [foreign] },
        { name: '', columnIds: [cols[0]] },
        { columnIds: [cols[0]] },
      ]) {
        const r = await org.owner.http.post(url(p.id, '/board-views')).send(body).expect(400);
        expect(r.body.code).toBe('validation_failed');
      }
      const vid = created.body.view.id;
      const renamed = await org.owner.http
        .patch(url(p.id, `/board-views/${vid}`))
        .send({ name: 'Doing' })
        .expect(200);
      expect(renamed.body.view).toMatchObject({ name: 'Doing', column_ids: [cols[2], cols[1]] });
      const recolumned = await org.owner.http
        .patch(url(p.id, `/board-views/${vid}`))
        .send({ columnIds: [cols[3], cols[2], cols[1]] })
        .expect(200);
      expect(recolumned.body.view).toMatchObject({ name: 'Doing', column_ids: [cols[3], cols[2], cols[1]] });
      for (const body of [{}, { columnIds: 'x' }, { columnIds: null }, { columnIds: [] }, { columnIds: [foreign] }, { name: '' }]) {
        await org.owner.http
          .patch(url(p.id, `/board-views/${vid}`))
          .send(body)
          .expect(400);
      }
      const list = await org.owner.http.get(url(p.id, '/board-views')).expect(200);
      expect(list.body.views.map((v: any) => v.name)).toEqual(['Default', 'Doing', 'Ends']);
      expect(list.body.columns).toHaveLength(4);
      const def = list.body.views[0];
      const refused = await org.owner.http.delete(url(p.id, `/board-views/${def.id}`)).expect(409);
      expect(refused.body.code).toBe('default_view_protected');
      await org.owner.http.delete(url(p.id, `/board-views/${vid}`)).expect(200);
      await org.owner.http.delete(url(p.id, `/board-views/${vid}`)).expect(404);
      await org.owner.http
        .patch(url(p.id, `/board-views/${vid}`))
        .send({ name: 'x' })
        .expect(404);
      // a view id of another project is 404 here
      const otherDefault = (await org.owner.http.get(url(other.id, '/board-views')).expect(200)).body.views[0].id;
      await org.owner.http
        .patch(url(p.id, `/board-views/${otherDefault}`))
        .send({ name: 'x' })
        .expect(404);
      await org.owner.http.delete(url(p.id, `/board-views/${otherDefault}`)).expect(404);
      expect((await org.owner.http.get(url(p.id, '/board-views')).expect(200)).body.views.map((v: any) => v.name)).toEqual(['Default', 'Ends']);
    });
  });

  describe('custom views', () => {
    it('CRUD: filters, sort, display_mode, color, icon; default views cannot be deleted', async () => {
      const p = await newProject(t, org);
      const memberId = randomId();
      const res = await org.owner.http
        .post(url(p.id, '/custom-views'))
        .send({
          name: 'Urgent',
          filters: {
            status: ['todo', 'cancelled'],
            priority: [0, 1],
            assignee: 'unassigned',
            assigneeIds: [memberId],
            labelIds: [],
            q: 'bug',
            open: true,
            includeArchived: false,
            milestoneId: randomId(),
            teamId: randomId(),
          },
          sort: { field: 'priority', direction: 'asc' },
          displayMode: 'board',
          color: '#ff0000',
          icon: 'fire',
        })
        .expect(201);
      const v = res.body.view;
      expect(res.body.custom_view).toEqual(v);
      expect(v).toMatchObject({
        name: 'Urgent',
        sort: { field: 'priority', direction: 'asc' },
        display_mode: 'board',
        color: '#ff0000',
        icon: 'fire',
        is_default: false,
        project_id: p.id,
      });
      expect(v.filters).toMatchObject({
        status: ['todo', 'cancelled'],
        priority: [0, 1],
        assignee: 'unassigned',
        assigneeIds: [memberId],
        q: 'bug',
        open: true,
      });
      const minimal = await org.owner.http
        .post(url(p.id, '/custom-views'))
        .send({ name: 'Plain', display_mode: 'table', filters: { assignee_ids: [memberId] } })
        .expect(201);
      expect(minimal.body.view).toMatchObject({ filters: { assigneeIds: [memberId] }, sort: null, display_mode: 'table', color: null, icon: null });
      const dflt = await org.owner.http.post(url(p.id, '/custom-views')).send({ name: 'Defaults' }).expect(201);
      expect(dflt.body.view).toMatchObject({ filters: {}, sort: null, display_mode: 'list' });

      const patched = await org.owner.http
        .patch(url(p.id, `/custom-views/${v.id}`))
        .send({ name: 'Hot', filters: { priority: [0] }, sort: null, icon: null })
        .expect(200);
      expect(patched.body.view).toMatchObject({ name: 'Hot', filters: { priority: [0] }, sort: null, icon: null, color: '#ff0000', display_mode: 'board' });
      const list = await org.owner.http.get(url(p.id, '/custom-views')).expect(200);
      expect(list.body.views.map((x: any) => x.name)).toEqual(['All Tasks', 'My Tasks', 'Recently Updated', 'Hot', 'Plain', 'Defaults']);
      for (const def of list.body.views.filter((x: any) => x.is_default)) {
        const r = await org.owner.http.delete(url(p.id, `/custom-views/${def.id}`)).expect(409);
        expect(r.body.code).toBe('default_view_protected');
      }
      // default views can still be edited
      await org.owner.http
        .patch(url(p.id, `/custom-views/${list.body.views[0].id}`))
        .send({ color: '#000000' })
        .expect(200);
      await org.owner.http.delete(url(p.id, `/custom-views/${v.id}`)).expect(200);
      await org.owner.http.delete(url(p.id, `/custom-views/${v.id}`)).expect(404);
      await org.owner.http
        .patch(url(p.id, `/custom-views/${v.id}`))
        .send({ name: 'x' })
        .expect(404);
      const other = await newProject(t, org);
      const foreign = (await org.owner.http.get(url(other.id, '/custom-views')).expect(200)).body.views[0].id;
      await org.owner.http
        .patch(url(p.id, `/custom-views/${foreign}`))
        .send({ name: 'x' })
        .expect(404);
      await org.owner.http.delete(url(p.id, `/custom-views/${foreign}`)).expect(404);
    });

    it('validation: unknown filter keys and wrong types, sort and display_mode values, color and icon are 400', async () => {
      const p = await newProject(t, org);
      const bad: object[] = [
        {},
        { name: '' },
        { name: 'x', filters: [] },
        { name: 'x', filters: 'status=todo' },
        { name: 'x', filters: { unknown: 1 } },
        { name: 'x', filters: { status: 'todo' } },
        { name: 'x', filters: { status: [1] } },
        { name: 'x', filters: { priority: [4] } },
        { name: 'x', filters: { priority: ['1'] } },
        { name: 'x', filters: { priority: [1.5] } },
        { name: 'x', filters: { assignee: 'someone' } },
        { name: 'x', filters: { assigneeIds: ['x'] } },
        { name: 'x', filters: { labelIds: 'a' } },
        { name: 'x', filters: { q: 5 } },
        { name: 'x', filters: { open: 'true' } },
        { name: 'x', filters: { includeArchived: 1 } },
        { name: 'x', filters: { milestoneId: 'm1' } },
        { name: 'x', filters: { teamId: [] } },
        { name: 'x', sort: { field: 'name' } },
        { name: 'x', sort: { field: 'priority', direction: 'up' } },
        { name: 'x', sort: { field: 'priority', extra: 1 } },
        { name: 'x', sort: 'priority' },
        { name: 'x', display_mode: 'kanban' },
        { name: 'x', displayMode: 'list', display_mode: 'board' },
        { name: 'x', color: '#fff' },
        { name: 'x', icon: 'i'.repeat(65) },
      ];
      for (const body of bad) {
        const r = await org.owner.http.post(url(p.id, '/custom-views')).send(body).expect(400);
        expect(withoutDetails(r.body)).toEqual({ error: expect.any(String), code: 'validation_failed' });
      }
      const views = (await org.owner.http.get(url(p.id, '/custom-views')).expect(200)).body.views;
      expect(views).toHaveLength(3);
      for (const body of [{}, { name: null }, { filters: { nope: true } }, { sort: { field: 'x' } }, { display_mode: 'grid' }, { color: 'red' }]) {
        await org.owner.http
          .patch(url(p.id, `/custom-views/${views[0].id}`))
          .send(body)
          .expect(400);
      }
    });
  });

  it('malformed JSON and non-object bodies on child routes are 400', async () => {
    const p = await newProject(t, org);
    await org.owner.http.post(url(p.id, '/board-columns')).set('content-type', 'application/json').send('{"key":').expect(400);
    await org.owner.http.put(url(p.id, '/board-columns/reorder')).set('content-type', 'application/json').send('[]').expect(400);
    await org.owner.http.post(url(p.id, '/custom-views')).set('content-type', 'application/json').send('"x"').expect(400);
    await org.owner.http.post(url(p.id, '/members')).set('content-type', 'application/json').send('{').expect(400);
  });

  it('OpenAPI documents the project routes', async () => {
    const doc = (await t.http().get('/api/openapi.json').expect(200)).body;
    for (const path of [
      '/api/orgs/{id}/projects',
      '/api/orgs/{id}/projects/{projectId}',
      '/api/orgs/{id}/projects/{projectId}/members',
      '/api/orgs/{id}/projects/{projectId}/teams',
      '/api/orgs/{id}/projects/{projectId}/board-columns',
      '/api/orgs/{id}/projects/{projectId}/board-columns/reorder',
      '/api/orgs/{id}/projects/{projectId}/board-columns/{columnId}',
      '/api/orgs/{id}/projects/{projectId}/board-views',
      '/api/orgs/{id}/projects/{projectId}/board-views/{viewId}',
      '/api/orgs/{id}/projects/{projectId}/custom-views',
      '/api/orgs/{id}/projects/{projectId}/custom-views/{viewId}',
    ]) {
      expect(doc.paths[path]).toBeDefined();
    }
    expect(doc.paths['/api/orgs/{id}/projects'].get.parameters.map((x: any) => x.name)).toEqual(expect.arrayContaining(['id', 'limit', 'offset', 'shape']));
    expect(doc.paths['/api/orgs/{id}/projects/{projectId}/members'].delete.parameters.map((x: any) => x.name)).toContain('memberId');
    expect(doc.paths['/api/orgs/{id}/projects/{projectId}/board-columns/{columnId}'].delete.parameters.map((x: any) => x.name)).toContain('reassignTo');
  });
});
