import { addMember, newOrg, newProject, newUser, type TestOrg, type TestUser, uniq } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import { grant, insertIssue } from '../support/issues';

/**
 * issue_counts (migration 1764100000000): the per-(project, status, priority, archived) counts
 * that answer list totals stay equal to count(*) over issues through every kind of write, under
 * concurrency, and list totals from them respect the caller's readable projects.
 */
describe('issue counts', () => {
  let t: TestApp;
  let org: TestOrg;
  let guest: TestUser;
  let projA: { id: string; key: string; name: string };
  let projB: { id: string; key: string; name: string };
  const base = () => `/api/orgs/${org.id}/issues`;

  /** Every (org, project, status, priority, archived) key: the maintained counts equal a recount. */
  async function expectExact(orgId = org.id): Promise<void> {
    const rows: Array<{ project_id: string | null; status: string; priority: number; archived: boolean; counted: number; kept: number }> = await t.db.query(
      `SELECT coalesce(a.project_id, c.project_id) AS project_id, coalesce(a.status, c.status) AS status,
              coalesce(a.priority, c.priority) AS priority, coalesce(a.archived, c.archived) AS archived,
              coalesce(a.n, 0)::int AS counted, coalesce(c.n, 0)::int AS kept
         FROM (SELECT project_id, status, priority, archived_at IS NOT NULL AS archived, count(*) AS n FROM issues WHERE org_id = $1
                GROUP BY 1, 2, 3, 4) a
         FULL JOIN (SELECT * FROM issue_counts WHERE org_id = $1) c
           ON c.project_id IS NOT DISTINCT FROM a.project_id AND c.status = a.status AND c.priority = a.priority AND c.archived = a.archived`,
      [orgId],
    );
    const wrong = rows.filter((r) => r.counted !== r.kept);
    expect(wrong).toEqual([]);
  }
  const total = async (q: string, who: TestUser = org.owner) => (await who.http.get(`${base()}?limit=1${q}`).expect(200)).body.total as number;
  const recount = async (where: string, args: unknown[] = []) =>
    (await t.db.query(`SELECT count(*)::int AS n FROM issues WHERE org_id = $1 AND ${where}`, [org.id, ...args]))[0].n as number;

  beforeAll(async () => {
    t = await startTestApp();
    org = await newOrg(t);
    guest = await newUser(t, 'guest');
    const guestId = await addMember(t, org, guest, 'guest');
    projA = await newProject(t, org);
    projB = await newProject(t, org);
    await grant(org, projA.id, guestId, 'view');
  });
  afterAll(() => t.close());

  it('creates (single, bulk, direct rows), updates, moves, archive/unarchive and deletes keep the counts exact', async () => {
    const created: string[] = [];
    for (const [projectId, status, priority] of [
      [projA.id, 'todo', 1],
      [projA.id, 'todo', 1],
      [projB.id, 'in_progress', 0],
      [null, 'backlog', 3],
    ] as const) {
      created.push(
        (
          await org.owner.http
            .post(base())
            .send({ title: uniq('c'), projectId, status, priority })
            .expect(201)
        ).body.issue.id,
      );
    }
    const bulk = await org.owner.http
      .post(`${base()}/bulk`)
      .send({ issues: [{ title: uniq('b'), projectId: projA.id, status: 'done' }, { title: uniq('b'), projectId: projB.id }, { title: uniq('b') }] })
      .expect(201);
    expect(bulk.body.count).toBe(3);
    await insertIssue(t, org.id, projA.id, { status: 'todo', archived: true });
    await expectExact();

    await org.owner.http.patch(`${base()}/${created[0]}`).send({ status: 'done' }).expect(200);
    await org.owner.http.patch(`${base()}/${created[1]}`).send({ priority: 3 }).expect(200);
    await org.owner.http.patch(`${base()}/${created[2]}`).send({ projectId: projA.id, status: 'todo' }).expect(200);
    await org.owner.http.patch(`${base()}/${created[3]}`).send({ projectId: projB.id, status: 'todo' }).expect(200);
    await org.owner.http
      .patch(`${base()}/${created[1]}`)
      .send({ title: uniq('renamed') })
      .expect(200);
    await expectExact();

    await org.owner.http.post(`${base()}/${created[1]}/archive`).expect(200);
    await expectExact();
    expect(await total('')).toBe(await recount('archived_at IS NULL'));
    await org.owner.http.delete(`${base()}/${created[1]}/archive`).expect(200);
    await org.owner.http.delete(`${base()}/${created[0]}`).expect(200);
    await expectExact();
  });

  it('statement-wide updates (column reassignment) and the list totals answered from the counts', async () => {
    const col = (await org.owner.http.post(`/api/orgs/${org.id}/projects/${projA.id}/board-columns`).send({ key: 'review', label: 'Review' }).expect(201)).body;
    const colId = col.column?.id ?? col.boardColumn?.id ?? col.board_column?.id ?? col.id;
    for (let k = 0; k < 3; k++) await insertIssue(t, org.id, projA.id, { status: 'review', priority: k });
    await insertIssue(t, org.id, projA.id, { status: 'review', archived: true });
    await expectExact();
    const todo = (await t.db.query(`SELECT id FROM board_columns WHERE org_id = $1 AND project_id = $2 AND key = 'todo'`, [org.id, projA.id]))[0].id;
    await org.owner.http.delete(`/api/orgs/${org.id}/projects/${projA.id}/board-columns/${colId}?reassignTo=${todo}`).expect(200);
    await expectExact();

    expect(await total('')).toBe(await recount('archived_at IS NULL'));
    expect(await total('&includeArchived=true')).toBe(await recount('true'));
    expect(await total('&open=true')).toBe(await recount(`archived_at IS NULL AND status NOT IN ('done', 'cancelled')`));
    expect(await total(`&projectId=${projA.id}`)).toBe(await recount('archived_at IS NULL AND project_id = $2', [projA.id]));
    expect(await total('&status=todo,done&priority=1,3')).toBe(await recount(`archived_at IS NULL AND status IN ('todo', 'done') AND priority IN (1, 3)`));
    expect(await total('&view=board&status=todo')).toBe(await recount(`archived_at IS NULL AND status = 'todo'`));
    // the guest reads projA only: totals sum the readable projects (no projectless issues)
    expect(await total('', guest)).toBe(await recount('archived_at IS NULL AND project_id = $2', [projA.id]));
    expect(await total('&includeArchived=true&status=todo', guest)).toBe(await recount(`project_id = $2 AND status = 'todo'`, [projA.id]));
    // a page past the end still reports the exact total
    const past = (await org.owner.http.get(`${base()}?offset=100000&shape=envelope`).expect(200)).body;
    expect(past).toMatchObject({ items: [], total: await recount('archived_at IS NULL'), nextOffset: null });
    // filters without a count key still count the rows
    expect(await total('&q=zzz-no-such-title')).toBe(0);
  });

  it('stays exact under concurrent creates and updates in the same keys', async () => {
    const ids = await Promise.all(
      Array.from({ length: 12 }, (_, k) =>
        org.owner.http
          .post(base())
          .send({ title: uniq('cc'), projectId: k % 2 ? projA.id : projB.id, status: 'todo', priority: 1 })
          .expect(201)
          .then((r) => r.body.issue.id as string),
      ),
    );
    await expectExact();
    await Promise.all(
      ids.map((id, k) =>
        org.owner.http
          .patch(`${base()}/${id}`)
          .send({ status: k % 3 ? 'done' : 'in_progress' })
          .expect(200),
      ),
    );
    await Promise.all(ids.slice(0, 6).map((id) => org.owner.http.post(`${base()}/${id}/archive`).expect(200)));
    await expectExact();
  });

  it('project deletion and organization deletion cascade the counts', async () => {
    const o2 = await newOrg(t);
    const p1 = await newProject(t, o2);
    const p2 = await newProject(t, o2);
    for (let k = 0; k < 4; k++) await insertIssue(t, o2.id, k % 2 ? p1.id : p2.id, { status: 'todo' });
    await insertIssue(t, o2.id, null, { status: 'todo' });
    await expectExact(o2.id);
    await o2.owner.http.delete(`/api/orgs/${o2.id}/projects/${p1.id}`).send({ confirmation: 'DELETE' }).expect(200);
    await expectExact(o2.id);
    expect(await t.db.query('SELECT 1 FROM issue_counts WHERE org_id = $1 AND project_id = $2', [o2.id, p1.id])).toEqual([]);
    await o2.owner.http.delete(`/api/orgs/${o2.id}`).expect(200);
    expect(await t.db.query('SELECT 1 FROM issue_counts WHERE org_id = $1', [o2.id])).toEqual([]);
    await expectExact();
  });
});
