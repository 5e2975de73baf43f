import { newOrg, uniq } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import { grant, insertIssue, type WorkTrackingWorld, workTrackingWorld } from '../support/issues';

/**
 * Issue list pages are kept per process and trusted only at the organization's `issues` data
 * version (migration 1765000000000: deferred triggers bump it at COMMIT). These tests prove that
 * the cache is used (a change made with triggers off stays invisible until the version moves) and
 * that every kind of change the list reads is visible to the very next request.
 */
describe('issue list cache (data versions)', () => {
  let t: TestApp;
  let w: WorkTrackingWorld;
  const list = (q: string, who = w.org.owner) => who.http.get(`/api/orgs/${w.org.id}/issues?${q}`).expect(200);
  const titles = async (q: string, who = w.org.owner) => (await list(q, who)).body.issues.map((i: any) => i.title);
  const version = async (orgId = w.org.id) =>
    Number((await t.db.query(`SELECT sum(version) AS version FROM data_versions WHERE org_id = $1 AND scope = 'issues'`, [orgId]))[0].version);
  /** Runs SQL with every trigger off (session_replication_role = replica): no version bump. */
  const silently = async (sql: string, args: unknown[]) => {
    const qr = t.db.createQueryRunner();
    try {
      await qr.query('SET session_replication_role = replica');
      await qr.query(sql, args);
    } finally {
      await qr.query('RESET session_replication_role');
      await qr.release();
    }
  };

  beforeAll(async () => {
    t = await startTestApp();
    w = await workTrackingWorld(t);
  });
  afterAll(() => t.close());

  it('an organization gets its version rows with it and loses them with it', async () => {
    const o = await newOrg(t);
    const rows = await t.db.query('SELECT scope, stripe, version FROM data_versions WHERE org_id = $1 ORDER BY scope, stripe', [o.id]);
    expect(rows).toEqual(
      ['heartbeat', 'heartbeat_work', 'issues', 'search', 'strategy'].flatMap((scope) =>
        [0, 1, 2, 3, 4, 5, 6, 7].map((stripe) => ({ scope, stripe, version: '0' })),
      ),
    );
    await o.owner.http.delete(`/api/orgs/${o.id}`).expect(200);
    expect(await t.db.query('SELECT 1 FROM data_versions WHERE org_id = $1', [o.id])).toHaveLength(0);
  });

  it('bumps once per committed transaction, at commit, and never for a rolled-back one', async () => {
    const v0 = await version();
    const qr = t.db.createQueryRunner();
    try {
      await qr.startTransaction();
      await qr.query(`UPDATE issues SET title = title || '.' WHERE org_id = $1`, [w.org.id]); // no rows yet: nothing to bump
      await insertIssueWith(qr, 'tx one');
      await insertIssueWith(qr, 'tx two');
      const [{ pid }] = await qr.query('SELECT pg_backend_pid() AS pid');
      // deferred: not even this transaction sees a bump before COMMIT
      expect(Number((await qr.query(`SELECT sum(version) AS version FROM data_versions WHERE org_id = $1 AND scope = 'issues'`, [w.org.id]))[0].version)).toBe(
        v0,
      );
      await qr.commitTransaction();
      expect(await version()).toBe(v0 + 1);
      // ...on the stripe of the writer's session
      const [stripe] = await t.db.query(
        `SELECT stripe, bumped_xid IS NOT NULL AS bumped FROM data_versions WHERE org_id = $1 AND scope = 'issues' AND stripe = $2`,
        [w.org.id, pid % 8],
      );
      expect(stripe).toEqual({ stripe: pid % 8, bumped: true });
      await qr.startTransaction();
      await insertIssueWith(qr, 'rolled back');
      await qr.rollbackTransaction();
      expect(await version()).toBe(v0 + 1);
    } finally {
      if (qr.isTransactionActive) await qr.rollbackTransaction();
      await qr.release();
    }
    // an UPDATE that changes nothing does not bump
    await t.db.query('UPDATE issues SET title = title WHERE org_id = $1', [w.org.id]);
    expect(await version()).toBe(v0 + 1);
    // TRUNCATE (no row triggers, no organization) bumps every organization, once per transaction
    // (seen inside the transaction, which is then rolled back so no data is lost)
    const tr = t.db.createQueryRunner();
    try {
      await tr.startTransaction();
      await tr.query('TRUNCATE issue_labels, initiative_milestones');
      const inside = await tr.query(`SELECT sum(version) AS version FROM data_versions WHERE org_id = $1 AND scope = 'issues'`, [w.org.id]);
      expect(Number(inside[0].version)).toBe(v0 + 2);
    } finally {
      if (tr.isTransactionActive) await tr.rollbackTransaction();
      await tr.release();
    }
    expect(await version()).toBe(v0 + 1);

    async function insertIssueWith(qr: ReturnType<TestApp['db']['createQueryRunner']>, title: string) {
      const [{ n }] = await qr.query(
        'WITH u AS (UPDATE projects SET issue_seq = issue_seq + 1 WHERE org_id = $1 AND id = $2 RETURNING issue_seq) SELECT issue_seq AS n FROM u',
        [w.org.id, w.proj.id],
      );
      await qr.query(`INSERT INTO issues (org_id, project_id, number, title, status, priority) VALUES ($1, $2, $3, $4, 'todo', 2)`, [
        w.org.id,
        w.proj.id,
        n,
        title,
      ]);
    }
  });

  it('writers on other stripes never wait for each other; the sum still counts every commit', async () => {
    const a = await insertIssue(t, w.org.id, w.proj.id);
    const b = await insertIssue(t, w.org.id, w.proj.id);
    const v0 = await version();
    // two sessions whose stripes (backend pid % 8) differ
    const runners = [t.db.createQueryRunner()];
    const pid = async (qr: (typeof runners)[number]) => Number((await qr.query('SELECT pg_backend_pid() AS pid'))[0].pid);
    try {
      // hold connections (so the pool hands out new ones) until one sits on another stripe
      const first = (await pid(runners[0])) % 8;
      let two = runners[0];
      while (two === runners[0] && runners.length < 15) {
        const next = t.db.createQueryRunner();
        runners.push(next);
        if ((await pid(next)) % 8 !== first) two = next;
      }
      expect(two).not.toBe(runners[0]);
      const one = runners[0];
      await one.startTransaction();
      await one.query('UPDATE issues SET title = $3 WHERE org_id = $1 AND id = $2', [w.org.id, a.id, uniq('one')]);
      await one.query('SET CONSTRAINTS ALL IMMEDIATE'); // runs its bump now: its stripe stays locked until it ends
      await two.startTransaction();
      await two.query(`SET LOCAL lock_timeout = '5s'`); // a wait on the other stripe would fail the test here
      await two.query('UPDATE issues SET title = $3 WHERE org_id = $1 AND id = $2', [w.org.id, b.id, uniq('two')]);
      await two.query('SET CONSTRAINTS ALL IMMEDIATE');
      await two.commitTransaction();
      expect(await version()).toBe(v0 + 1);
      await one.commitTransaction();
      expect(await version()).toBe(v0 + 2);
    } finally {
      for (const qr of runners) {
        if (qr.isTransactionActive) await qr.rollbackTransaction();
        await qr.release();
      }
    }
  });

  it('every table a list reads carries the version triggers', async () => {
    const rows: Array<{ table: string; name: string }> = await t.db.query(
      `SELECT c.relname AS table, tg.tgname AS name FROM pg_trigger tg JOIN pg_class c ON c.oid = tg.tgrelid WHERE tg.tgname LIKE 'data_versions_issues_%' ORDER BY 1, 2`,
    );
    const tables = [
      'board_columns',
      'initiative_issues',
      'initiative_milestones',
      'issue_assignees',
      'issue_dependencies',
      'issue_labels',
      'issues',
      'projects',
    ];
    // the timeline's status moves (analytics) bump on insert and delete only: entries are never updated
    const moves = ['del', 'ins', 'truncate'].map((k) => ({ table: 'activity_events', name: `data_versions_issues_${k}` }));
    expect(rows).toEqual([...moves, ...tables.flatMap((table) => ['ins', 'truncate', 'upd'].map((k) => ({ table, name: `data_versions_issues_${k}` })))]);
  });

  it('serves a kept page while the version is unchanged, and the fresh one as soon as it moves', async () => {
    const tag = uniq('kept');
    const a = await insertIssue(t, w.org.id, w.proj.id, { title: `${tag} original` });
    expect(await titles(`q=${tag}`)).toEqual([`${tag} original`]);
    await silently('UPDATE issues SET title = $3 WHERE org_id = $1 AND id = $2', [w.org.id, a.id, `${tag} silent`]);
    // the same request again: answered from the kept page (proof that the cache is in use)
    expect(await titles(`q=${tag}`)).toEqual([`${tag} original`]);
    // any committed change of the organization's issues moves the version
    await insertIssue(t, w.org.id, w.hidden.id, { title: uniq('unrelated') });
    expect(await titles(`q=${tag}`)).toEqual([`${tag} silent`]);
  });

  it('a kept page goes out as the same bytes, gzipped once for clients that accept it', async () => {
    const tag = uniq('bytes');
    for (let i = 0; i < 6; i++) await insertIssue(t, w.org.id, w.proj.id, { title: `${tag} ${i}`, description: 'x'.repeat(200) });
    const get = (enc: string) => w.org.owner.http.get(`/api/orgs/${w.org.id}/issues?q=${tag}`).set('accept-encoding', enc).expect(200);
    const plain = await get('identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.body.total).toBe(6);
    const zipped = await get('gzip, deflate');
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(Number(zipped.headers['content-length'])).toBeLessThan(Number(plain.headers['content-length']));
    expect(zipped.body).toEqual(plain.body); // superagent decompresses
    // errors keep their JSON shape on this route
    const bad = await w.org.owner.http.get(`/api/orgs/${w.org.id}/issues?limit=-1`).set('accept-encoding', 'gzip').expect(400);
    expect(bad.body.code).toBeDefined();
  });

  it('every change the list reads is visible to the very next request', async () => {
    const tag = uniq('fresh');
    const q = `q=${tag}`;
    const owner = w.org.owner.http;
    const issues = `/api/orgs/${w.org.id}/issues`;
    expect(await titles(q)).toEqual([]);
    // create
    const created = (
      await owner
        .post(issues)
        .send({ title: `${tag} one`, projectId: w.proj.id })
        .expect(201)
    ).body.issue;
    expect(await titles(q)).toEqual([`${tag} one`]);
    // update (title, status, priority)
    await owner
      .patch(`${issues}/${created.id}`)
      .send({ title: `${tag} uno`, status: 'in_progress', priority: 0 })
      .expect(200);
    expect((await list(q)).body.issues[0]).toMatchObject({ title: `${tag} uno`, status: 'in_progress', priority: 0 });
    expect((await list(`${q}&status=in_progress`)).body.total).toBe(1);
    // assignees (a link row)
    await owner
      .patch(`${issues}/${created.id}`)
      .send({ assigneeIds: [w.editorId] })
      .expect(200);
    expect((await list(q)).body.issues[0].assignee_ids).toEqual([w.editorId]);
    expect((await list(`${q}&assigneeId=${w.editorId}`)).body.total).toBe(1);
    // labels (a link row)
    const label = (
      await owner
        .post(`/api/orgs/${w.org.id}/labels`)
        .send({ name: uniq('lbl') })
        .expect(201)
    ).body.label;
    expect((await list(`${q}&labelId=${label.id}`)).body.total).toBe(0);
    await owner.post(`${issues}/${created.id}/labels`).send({ labelId: label.id }).expect(201);
    expect((await list(`${q}&labelId=${label.id}`)).body.total).toBe(1);
    // dependencies (scope=blocked) and their satisfaction by the blocker's status
    const blocker = (
      await owner
        .post(issues)
        .send({ title: `${tag} blocker`, projectId: w.proj.id })
        .expect(201)
    ).body.issue;
    expect((await list(`${q}&scope=blocked`)).body.total).toBe(0);
    await owner.post(`${issues}/${created.id}/dependencies`).send({ blockedByIssueId: blocker.id }).expect(201);
    expect((await list(`${q}&scope=blocked`)).body.issues.map((i: any) => i.id)).toEqual([created.id]);
    await owner.patch(`${issues}/${blocker.id}`).send({ status: 'done' }).expect(200);
    expect((await list(`${q}&scope=blocked`)).body.total).toBe(0);
    // initiative links (initiativeId)
    const ini = (
      await owner
        .post(`/api/orgs/${w.org.id}/initiatives`)
        .send({ title: uniq('ini') })
        .expect(201)
    ).body.initiative;
    expect((await list(`${q}&initiativeId=${ini.id}`)).body.total).toBe(0);
    await owner.post(`/api/orgs/${w.org.id}/initiatives/${ini.id}/projects`).send({ project_id: w.proj.id }).expect(201);
    await owner.post(`/api/orgs/${w.org.id}/initiatives/${ini.id}/issues`).send({ issueId: created.id }).expect(201);
    expect((await list(`${q}&initiativeId=${ini.id}`)).body.total).toBe(1);
    // the project's key and slug travel with every full item
    await owner
      .patch(`/api/orgs/${w.org.id}/projects/${w.proj.id}`)
      .send({ name: uniq('Renamed') })
      .expect(200);
    const slug = (await owner.get(`/api/orgs/${w.org.id}/projects/${w.proj.id}`).expect(200)).body.project.slug;
    expect((await list(q)).body.issues.every((i: any) => i.projectSlug === slug)).toBe(true);
    // archive, unarchive, delete
    await owner.post(`${issues}/${created.id}/archive`).expect(200);
    expect(await titles(q)).toEqual([`${tag} blocker`]);
    expect((await list(`${q}&includeArchived=true`)).body.total).toBe(2);
    await owner.delete(`${issues}/${created.id}/archive`).expect(200);
    expect((await list(q)).body.total).toBe(2);
    await owner.delete(`${issues}/${created.id}`).expect(200);
    expect(await titles(q)).toEqual([`${tag} blocker`]);
  });

  it('readable projects are part of the key: access changes apply at once, callers never share pages', async () => {
    const tag = uniq('vis');
    await insertIssue(t, w.org.id, w.proj.id, { title: `${tag} visible` });
    await insertIssue(t, w.org.id, w.hidden.id, { title: `${tag} hidden` });
    expect((await titles(`q=${tag}`)).sort()).toEqual([`${tag} hidden`, `${tag} visible`]);
    expect(await titles(`q=${tag}`, w.guest)).toEqual([`${tag} visible`]);
    // access granted and revoked without touching any issue: the very next page follows
    await grant(w.org, w.hidden.id, w.guestId, 'view');
    expect((await titles(`q=${tag}`, w.guest)).sort()).toEqual([`${tag} hidden`, `${tag} visible`]);
    await w.org.owner.http.delete(`/api/orgs/${w.org.id}/projects/${w.hidden.id}/members?memberId=${w.guestId}`).expect(200);
    expect(await titles(`q=${tag}`, w.guest)).toEqual([`${tag} visible`]);
    await w.org.owner.http.delete(`/api/orgs/${w.org.id}/projects/${w.proj.id}/members?memberId=${w.guestId}`).expect(200);
    expect(await titles(`q=${tag}`, w.guest)).toEqual([]);
    await grant(w.org, w.proj.id, w.guestId, 'view');
  });
});
