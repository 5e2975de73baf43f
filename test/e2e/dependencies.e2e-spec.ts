import { randomUUID } from 'node:crypto';
import { DependencyRules } from '../../src/modules/dependencies/dependency-rules.service';
import { startTestApp, type TestApp } from '../support/app';
import { sameBytesSpellings } from '../support/base64url';
import { addMember, newOrg, newProject, newUser, type TestOrg, type TestUser } from '../support/factories';

/**
 * Dependencies: list, add, release point, remove, the chain view and the DependencyRules
 * contract. Issues are inserted directly (the issues module is built in parallel).
 */
describe('dependencies', () => {
  let t: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  let member: TestUser; // org member: view on every project
  let guest: TestUser; // guest: edit on projA only
  let guestId: string;
  let projA: { id: string; key: string };
  let projB: { id: string; key: string };
  let colsA: Record<string, string>;
  let colsB: Record<string, string>;
  let seq = 0;

  const base = (issueId: string, o = org) => `/api/orgs/${o.id}/issues/${issueId}/dependencies`;
  const mkIssue = async (projectId: string | null, status = 'todo', o = org, title = `Issue ${++seq}`): Promise<string> => {
    const id = randomUUID();
    const n = ++seq + 1000;
    await t.db.query('INSERT INTO issues (org_id, id, project_id, number, title, status) VALUES ($1, $2, $3, $4, $5, $6)', [
      o.id,
      id,
      projectId,
      n,
      title,
      status,
    ]);
    return id;
  };
  const setStatus = (id: string, status: string) => t.db.query('UPDATE issues SET status = $2 WHERE id = $1', [id, status]);
  const columns = async (projectId: string): Promise<Record<string, string>> => {
    const res = await org.owner.http.get(`/api/orgs/${org.id}/projects/${projectId}/board-columns`).expect(200);
    return Object.fromEntries(res.body.columns.map((c: any) => [c.key, c.id]));
  };
  const add = (blockedId: string, blockerId: string, extra: Record<string, unknown> = {}) =>
    org.owner.http.post(base(blockedId)).send({ blockedByIssueId: blockerId, ...extra });

  beforeAll(async () => {
    t = await startTestApp();
    org = await newOrg(t);
    other = await newOrg(t);
    member = await newUser(t, 'member');
    guest = await newUser(t, 'guest');
    await addMember(t, org, member, 'member');
    guestId = await addMember(t, org, guest, 'guest');
    projA = await newProject(t, org);
    projB = await newProject(t, org);
    await org.owner.http.post(`/api/orgs/${org.id}/projects/${projA.id}/members`).send({ memberId: guestId, accessLevel: 'edit' }).expect(201);
    colsA = await columns(projA.id);
    colsB = await columns(projB.id);
  });
  afterAll(() => t.close());

  describe('POST and GET', () => {
    it('blockedByIssueId: 201 { dependency } with the done column as default release point; both sides list it', async () => {
      const a = await mkIssue(projA.id);
      const b = await mkIssue(projA.id);
      const res = await add(b, a).expect(201);
      const dep = res.body.dependency;
      expect(dep).toMatchObject({
        id: expect.any(String),
        blocking_issue_id: a,
        blocked_issue_id: b,
        releaseColumnId: colsA.done,
        release_column_id: colsA.done,
        releaseColumn: { id: colsA.done, key: 'done', label: expect.any(String), position: expect.any(Number) },
        satisfied: false,
        issue: {
          id: a,
          number: expect.any(Number),
          identifier: expect.stringMatching(new RegExp(`^${projA.key}-\\d+$`)),
          projectSlug: expect.any(String),
          title: expect.any(String),
          status: 'todo',
        },
      });
      const ofB = (await org.owner.http.get(base(b)).expect(200)).body;
      expect(ofB.blocking).toEqual([]);
      expect(ofB.blockedBy).toHaveLength(1);
      expect(Object.keys(ofB.blockedBy[0]).sort()).toEqual(
        ['createdAt', 'id', 'issue', 'releaseColumn', 'releaseColumnId', 'release_column_id', 'satisfied'].sort(),
      );
      expect(ofB.blockedBy[0]).toMatchObject({ id: dep.id, issue: { id: a }, releaseColumnId: colsA.done, satisfied: false });
      expect(new Date(ofB.blockedBy[0].createdAt).toISOString()).toBe(ofB.blockedBy[0].createdAt);
      const ofA = (await org.owner.http.get(base(a)).expect(200)).body;
      expect(ofA.blockedBy).toEqual([]);
      expect(ofA.blocking).toEqual([expect.objectContaining({ id: dep.id, issue: expect.objectContaining({ id: b }), satisfied: false })]);
    });

    it('blockingIssueId and the snake_case aliases; explicit release column', async () => {
      const a = await mkIssue(projA.id);
      const b = await mkIssue(projA.id);
      const c = await mkIssue(projA.id);
      const r1 = await org.owner.http.post(base(a)).send({ blockingIssueId: b, releaseColumnId: colsA.in_progress }).expect(201);
      expect(r1.body.dependency).toMatchObject({ blocking_issue_id: a, blocked_issue_id: b, releaseColumnId: colsA.in_progress });
      const r2 = await org.owner.http.post(base(c)).send({ blocked_by_issue_id: a, release_column_id: colsA.todo }).expect(201);
      expect(r2.body.dependency).toMatchObject({ blocking_issue_id: a, blocked_issue_id: c, releaseColumnId: colsA.todo });
      const r3 = await org.owner.http.post(base(b)).send({ blocking_issue_id: c }).expect(201);
      expect(r3.body.dependency).toMatchObject({ blocking_issue_id: b, blocked_issue_id: c, releaseColumnId: colsA.done });
    });

    it('exactly one target, UUIDs only, no self-dependency: 400', async () => {
      const a = await mkIssue(projA.id);
      const b = await mkIssue(projA.id);
      for (const body of [
        {},
        { blockedByIssueId: b, blockingIssueId: b },
        { blockedByIssueId: 'x' },
        { blockedByIssueId: 123 },
        { blockingIssueId: null },
        { blockedByIssueId: b, blocked_by_issue_id: a },
        { blockedByIssueId: a },
        { blockedByIssueId: b, releaseColumnId: 'x' },
        { blockedByIssueId: b, releaseColumnId: 5 },
      ]) {
        const r = await org.owner.http.post(base(a)).send(body);
        expect([r.status, body]).toEqual([400, body]);
        expect(r.body.error).toEqual(expect.any(String));
      }
      expect(await t.db.query('SELECT 1 FROM issue_dependencies WHERE blocked_issue_id = $1 OR blocking_issue_id = $1', [a])).toHaveLength(0);
    });

    it('the blocking issue must be in a project; a projectless issue may be blocked', async () => {
      const loose = await mkIssue(null);
      const a = await mkIssue(projA.id);
      const r = await add(a, loose).expect(400);
      expect(r.body.error).toMatch(/project/);
      await org.owner.http.post(base(loose)).send({ blockingIssueId: a }).expect(400);
      const ok = await add(loose, a).expect(201);
      expect(ok.body.dependency.issue).toMatchObject({ id: a });
      const list = (await org.owner.http.get(base(a)).expect(200)).body;
      expect(list.blocking[0].issue).toMatchObject({ id: loose, identifier: null, projectSlug: null });
    });

    it('releaseColumnId must be a column of the blocking project (400); without done the last column is the default', async () => {
      const a = await mkIssue(projA.id);
      const b = await mkIssue(projA.id);
      await add(b, a, { releaseColumnId: colsB.todo }).expect(400);
      await add(b, a, { releaseColumnId: randomUUID() }).expect(400);
      const p = await newProject(t, org);
      const cols = await columns(p.id);
      await t.db.query(`UPDATE board_columns SET key = 'shipped' WHERE id = $1`, [cols.done]);
      await t.db.query(`UPDATE board_columns SET position = position + 10 WHERE id = $1`, [cols.backlog]);
      const x = await mkIssue(p.id);
      const res = await add(b, x).expect(201);
      expect(res.body.dependency.releaseColumnId).toBe(cols.backlog);
    });

    it('duplicates are 409, from either side', async () => {
      const a = await mkIssue(projA.id);
      const b = await mkIssue(projA.id);
      await add(b, a).expect(201);
      const r = await add(b, a).expect(409);
      expect(r.body.error).toMatch(/already exists/);
      await org.owner.http.post(base(a)).send({ blockingIssueId: b }).expect(409);
      expect(await t.db.query('SELECT 1 FROM issue_dependencies WHERE blocking_issue_id = $1', [a])).toHaveLength(1);
    });

    it('cycles are 400: A→B→C→A and A↔B', async () => {
      const a = await mkIssue(projA.id);
      const b = await mkIssue(projA.id);
      const c = await mkIssue(projB.id);
      await add(b, a).expect(201); // A blocks B
      await add(c, b).expect(201); // B blocks C
      const r = await add(a, c).expect(400); // C blocks A closes the cycle
      expect(r.body.error).toMatch(/cycle/);
      await add(a, b).expect(400);
      await org.owner.http.post(base(c)).send({ blockingIssueId: a }).expect(400);
      // concurrent attempts to close a cycle: at most one wins
      const d = await mkIssue(projA.id);
      const e = await mkIssue(projA.id);
      const res = await Promise.all([add(e, d), org.owner.http.post(base(e)).send({ blockingIssueId: d })]);
      expect(res.map((x) => x.status).sort()).toEqual([201, 400]);
    });

    it('401 without credentials; 404 for other organizations, unreadable and unknown issues; 403 for view-only callers', async () => {
      const a = await mkIssue(projA.id);
      const b = await mkIssue(projB.id);
      await t.http().get(base(a)).expect(401);
      await t.http().post(base(a)).send({ blockedByIssueId: b }).expect(401);
      const foreign = await mkIssue(null, 'todo', other);
      await org.owner.http.get(base(foreign)).expect(404);
      await org.owner.http.get(base(foreign, other)).expect(404);
      await org.owner.http.get(base(randomUUID())).expect(404);
      expect((await org.owner.http.get(base('not-a-uuid')).expect(400)).body.code).toBe('invalid_reference');
      await org.owner.http.post(base(a)).send({ blockedByIssueId: foreign }).expect(404);
      // guest: no access to projB and projectless issues
      await guest.http.get(base(b)).expect(404);
      await guest.http.get(base(await mkIssue(null))).expect(404);
      const r = await guest.http.post(base(a)).send({ blockedByIssueId: b }).expect(404);
      expect(JSON.stringify(r.body)).not.toContain(b);
      // member: view only
      await member.http.get(base(a)).expect(200);
      await member.http.post(base(a)).send({ blockedByIssueId: b }).expect(403);
      // guest with edit on projA
      const a2 = await mkIssue(projA.id);
      await guest.http.post(base(a)).send({ blockedByIssueId: a2 }).expect(201);
    });

    it('unreadable other issues are concealed: issue null, no release metadata, no satisfied, no id or title', async () => {
      const secretTitle = `Secret ${randomUUID()}`;
      const hidden = await mkIssue(projB.id, 'in_progress', org, secretTitle);
      const a = await mkIssue(projA.id);
      const c = await mkIssue(projA.id);
      await add(a, hidden).expect(201);
      await add(hidden, c).expect(201);
      const res = await guest.http.get(base(a)).expect(200);
      expect(res.body.blockedBy).toHaveLength(1);
      expect(res.body.blockedBy[0]).toEqual({
        id: expect.any(String),
        createdAt: expect.any(String),
        issue: null,
        releaseColumnId: null,
        release_column_id: null,
        releaseColumn: null,
      });
      const text = JSON.stringify(res.body);
      expect(text).not.toContain(hidden);
      expect(text).not.toContain(secretTitle);
      const ofC = (await guest.http.get(base(c)).expect(200)).body;
      expect(ofC.blocking[0]).toMatchObject({ issue: null, releaseColumnId: colsA.done, satisfied: false });
      expect(JSON.stringify(ofC)).not.toContain(hidden);
      // the owner sees everything
      const full = (await org.owner.http.get(base(a)).expect(200)).body;
      expect(full.blockedBy[0]).toMatchObject({ issue: { id: hidden, title: secretTitle }, releaseColumnId: colsB.done, satisfied: false });
    });
  });

  describe('satisfied (DependencyRules)', () => {
    it('at or after the release column, done/cancelled/archived always; legacy rows only done/cancelled', async () => {
      const rules = t.app.get(DependencyRules);
      const blocker = await mkIssue(projA.id, 'backlog');
      const blocked = await mkIssue(projA.id);
      const legacyBlocker = await mkIssue(projA.id, 'in_progress');
      const dep = (await add(blocked, blocker, { releaseColumnId: colsA.todo }).expect(201)).body.dependency;
      const legacy = (await add(blocked, legacyBlocker).expect(201)).body.dependency;
      await t.db.query('UPDATE issue_dependencies SET release_column_id = NULL WHERE id = $1', [legacy.id]);
      const sat = async () => {
        const body = (await org.owner.http.get(base(blocked)).expect(200)).body;
        return Object.fromEntries(body.blockedBy.map((e: any) => [e.id, e.satisfied]));
      };
      const blockedNow = () => rules.isBlocked(t.db.manager, org.id, blocked);
      const inList = async () =>
        (await t.db.query(`SELECT ${rules.blockedIssuesSql('x')} AS b FROM issues x WHERE x.org_id = $1 AND x.id = $2`, [org.id, blocked]))[0].b;
      expect(await sat()).toEqual({ [dep.id]: false, [legacy.id]: false });
      expect(await blockedNow()).toBe(true);
      await setStatus(blocker, 'todo');
      expect((await sat())[dep.id]).toBe(true);
      await setStatus(blocker, 'in_progress');
      expect((await sat())[dep.id]).toBe(true);
      expect(await blockedNow()).toBe(true); // the legacy blocker is still open
      await setStatus(legacyBlocker, 'cancelled');
      expect(await sat()).toEqual({ [dep.id]: true, [legacy.id]: true });
      expect(await blockedNow()).toBe(false);
      expect(await inList()).toBe(false);
      await setStatus(legacyBlocker, 'review_custom');
      expect(await inList()).toBe(true);
      await t.db.query('UPDATE issues SET archived_at = now() WHERE id = $1', [legacyBlocker]);
      expect(await inList()).toBe(false);
      await setStatus(blocker, 'backlog');
      expect(await inList()).toBe(true);
      await setStatus(blocker, 'done');
      expect(await inList()).toBe(false);
    });

    it('remapOnProjectChange: every blocking dependency needs a column of the new project; projectless moves are 400', async () => {
      const rules = t.app.get(DependencyRules);
      const blocker = await mkIssue(projA.id);
      const x = await mkIssue(projA.id);
      const y = await mkIssue(projA.id);
      const d1 = (await add(x, blocker).expect(201)).body.dependency.id;
      const d2 = (await add(y, blocker).expect(201)).body.dependency.id;
      const run = (to: string | null, mappings: any) => t.db.transaction((m) => rules.remapOnProjectChange(m, org.id, blocker, to, mappings));
      await expect(run(projB.id, undefined)).rejects.toMatchObject({ status: 400, extra: { dependency_ids: [d1, d2].sort(() => 0) } });
      await expect(run(projB.id, [{ dependencyId: d1, releaseColumnId: colsB.done }])).rejects.toMatchObject({ status: 400, extra: { dependency_ids: [d2] } });
      await expect(
        run(projB.id, [
          { dependencyId: d1, releaseColumnId: colsB.done },
          { dependencyId: d2, releaseColumnId: colsA.done },
        ]),
      ).rejects.toMatchObject({ status: 400 });
      await expect(run(null, [])).rejects.toMatchObject({ status: 400 });
      await expect(run(projB.id, 'x')).rejects.toMatchObject({ status: 400 });
      await expect(run(projB.id, [{ dependencyId: 'x' }])).rejects.toMatchObject({ status: 400 });
      await run(projB.id, [
        { dependency_id: d1, release_column_id: colsB.todo },
        { dependencyId: d2, releaseColumnId: colsB.done },
      ]);
      const rows = await t.db.query('SELECT id, release_column_id FROM issue_dependencies WHERE blocking_issue_id = $1', [blocker]);
      expect(Object.fromEntries(rows.map((r: any) => [r.id, r.release_column_id]))).toEqual({ [d1]: colsB.todo, [d2]: colsB.done });
      // an issue that blocks nothing moves freely
      await t.db.transaction((m) => rules.remapOnProjectChange(m, org.id, x, null, undefined));
    });
  });

  describe('PATCH and DELETE', () => {
    it('PATCH { releaseColumnId } or { release_column_id }: 200; other columns 400; unknown 404; view-only 403', async () => {
      const a = await mkIssue(projA.id);
      const b = await mkIssue(projA.id);
      const dep = (await add(b, a).expect(201)).body.dependency;
      const r1 = await org.owner.http
        .patch(`${base(b)}/${dep.id}`)
        .send({ releaseColumnId: colsA.todo })
        .expect(200);
      expect(r1.body.dependency).toMatchObject({ id: dep.id, releaseColumnId: colsA.todo, satisfied: true });
      await org.owner.http
        .patch(`${base(a)}/${dep.id}`)
        .send({ release_column_id: colsA.in_progress })
        .expect(200);
      expect((await org.owner.http.get(base(b)).expect(200)).body.blockedBy[0].releaseColumnId).toBe(colsA.in_progress);
      await org.owner.http
        .patch(`${base(b)}/${dep.id}`)
        .send({ releaseColumnId: colsB.todo })
        .expect(400);
      await org.owner.http
        .patch(`${base(b)}/${dep.id}`)
        .send({})
        .expect(400);
      await org.owner.http
        .patch(`${base(b)}/${dep.id}`)
        .send({ releaseColumnId: 'x' })
        .expect(400);
      await org.owner.http
        .patch(`${base(b)}/${randomUUID()}`)
        .send({ releaseColumnId: colsA.todo })
        .expect(404);
      const unrelated = await mkIssue(projA.id);
      await org.owner.http
        .patch(`${base(unrelated)}/${dep.id}`)
        .send({ releaseColumnId: colsA.todo })
        .expect(404);
      await member.http
        .patch(`${base(b)}/${dep.id}`)
        .send({ releaseColumnId: colsA.todo })
        .expect(403);
      await t
        .http()
        .patch(`${base(b)}/${dep.id}`)
        .send({ releaseColumnId: colsA.todo })
        .expect(401);
    });

    it('PATCH of a dependency whose blocker is unreadable is concealed (404)', async () => {
      const hidden = await mkIssue(projB.id);
      const a = await mkIssue(projA.id);
      const dep = (await add(a, hidden).expect(201)).body.dependency;
      await guest.http
        .patch(`${base(a)}/${dep.id}`)
        .send({ releaseColumnId: colsB.todo })
        .expect(404);
    });

    it('DELETE: 200 { success: true } from either side, then 404; 403 view-only; 401', async () => {
      const a = await mkIssue(projA.id);
      const b = await mkIssue(projA.id);
      const dep = (await add(b, a).expect(201)).body.dependency;
      await t
        .http()
        .delete(`${base(b)}/${dep.id}`)
        .expect(401);
      await member.http.delete(`${base(b)}/${dep.id}`).expect(403);
      await org.owner.http.delete(`${base(await mkIssue(projA.id))}/${dep.id}`).expect(404);
      const res = await org.owner.http.delete(`${base(a)}/${dep.id}`).expect(200);
      expect(res.body).toEqual({ success: true });
      await org.owner.http.delete(`${base(b)}/${dep.id}`).expect(404);
      expect((await org.owner.http.get(base(b)).expect(200)).body.blockedBy).toEqual([]);
    });
  });

  it('add and remove publish dependency.added / dependency.removed on both issues', async () => {
    const a = await mkIssue(projA.id);
    const b = await mkIssue(projA.id);
    const dep = (await add(b, a).expect(201)).body.dependency;
    await org.owner.http.delete(`${base(b)}/${dep.id}`).expect(200);
    // The activity module (another part) persists the events; wait briefly for its handler.
    let rows: Array<{ issue_id: string; action: string; metadata: any }> = [];
    for (let i = 0; i < 20 && rows.length < 4; i++) {
      await new Promise((r) => setTimeout(r, 100));
      rows = await t.db.query('SELECT issue_id, action, metadata FROM activity_events WHERE issue_id = ANY($1) ORDER BY created_at, action', [[a, b]]);
    }
    expect(rows.map((r) => `${r.issue_id === a ? 'A' : 'B'} ${r.action}`).sort()).toEqual([
      'A dependency.added',
      'A dependency.removed',
      'B dependency.added',
      'B dependency.removed',
    ]);
    for (const r of rows) expect(r.metadata).toMatchObject({ dependency_id: dep.id, blocking_issue_id: a, blocked_issue_id: b });
  });

  describe('view=chain', () => {
    // D0(done) → D1 → D2 ← D3(projB) ; D2 → D4 → D5
    let g: Record<string, string>;
    const chain = (issueId: string, q = '', who: TestUser = org.owner) => who.http.get(`${base(issueId)}?view=chain${q}`);
    beforeAll(async () => {
      g = {
        D0: await mkIssue(projA.id, 'done'),
        D1: await mkIssue(projA.id, 'todo'),
        D2: await mkIssue(projA.id, 'todo'),
        D3: await mkIssue(projB.id, 'todo', org, 'Chain secret D3'),
        D4: await mkIssue(projA.id, 'todo'),
        D5: await mkIssue(projA.id, 'todo'),
      };
      await add(g.D1, g.D0).expect(201);
      await add(g.D2, g.D1).expect(201);
      await add(g.D2, g.D3).expect(201);
      await add(g.D4, g.D2).expect(201);
      await add(g.D5, g.D4).expect(201);
    });

    it('defaults: both directions, depth 2, limit 50; nodes deduplicated with readiness, edges normalized', async () => {
      const b = (await chain(g.D2).expect(200)).body;
      expect(b).toMatchObject({ root_issue_id: g.D2, direction: 'both', depth: 2, page: { limit: 50, next_cursor: null, has_more: false } });
      const ids = b.nodes.map((n: any) => n.id);
      expect(ids[0]).toBe(g.D2);
      expect(new Set(ids)).toEqual(new Set([g.D0, g.D1, g.D2, g.D3, g.D4, g.D5]));
      expect(ids).toHaveLength(6);
      const node = (id: string) => b.nodes.find((n: any) => n.id === id);
      expect(node(g.D0)).toEqual({
        id: g.D0,
        number: expect.any(Number),
        identifier: expect.any(String),
        projectSlug: expect.any(String),
        title: expect.any(String),
        status: 'done',
        project_id: projA.id,
        readiness: 'complete',
      });
      expect(node(g.D1).readiness).toBe('ready');
      expect(node(g.D2).readiness).toBe('blocked');
      expect(node(g.D4).readiness).toBe('blocked');
      expect(b.edges).toHaveLength(5);
      const e01 = b.edges.find((e: any) => e.from === g.D0 && e.to === g.D1);
      expect(e01).toEqual({
        id: expect.any(String),
        from: g.D0,
        to: g.D1,
        from_readable: true,
        to_readable: true,
        release_condition: { column_id: colsA.done, key: 'done', label: expect.any(String) },
        satisfied: true,
        reason: 'blocker_complete',
      });
      expect(b.edges.find((e: any) => e.from === g.D1)).toMatchObject({ satisfied: false, reason: 'waiting_for_release_column' });
      expect(b.counts).toEqual({ nodes: 6, edges: 5, readable_nodes: 6, restricted_nodes: 0, ready: 2, blocked: 3, complete: 1, unknown: 0 });
    });

    it('direction and depth bound the walk', async () => {
      const up = (await chain(g.D2, '&direction=upstream&depth=1').expect(200)).body;
      expect(new Set(up.nodes.map((n: any) => n.id))).toEqual(new Set([g.D2, g.D1, g.D3]));
      expect(up.edges).toHaveLength(2);
      const down = (await chain(g.D2, '&direction=downstream&depth=5').expect(200)).body;
      expect(new Set(down.nodes.map((n: any) => n.id))).toEqual(new Set([g.D2, g.D4, g.D5]));
      expect(down).toMatchObject({ direction: 'downstream', depth: 5 });
      const far = (await chain(g.D5, '&direction=upstream&depth=5').expect(200)).body;
      expect(far.nodes).toHaveLength(6);
    });

    it('unreadable nodes are restricted tokens with no identity; their edges carry no release condition', async () => {
      const b = (await chain(g.D2, '', guest).expect(200)).body;
      const restricted = b.nodes.filter((n: any) => n.restricted);
      expect(restricted).toHaveLength(1);
      expect(restricted[0]).toEqual({ restricted: true, token: expect.any(String) });
      expect(restricted[0].token).not.toBe(g.D3);
      const text = JSON.stringify(b);
      expect(text).not.toContain(g.D3);
      expect(text).not.toContain('Chain secret D3');
      expect(text).not.toContain(projB.id);
      const edge = b.edges.find((e: any) => e.from === restricted[0].token);
      expect(edge).toEqual({ id: expect.any(String), from: restricted[0].token, to: g.D2, from_readable: false, to_readable: true, reason: 'restricted' });
      expect(b.counts).toMatchObject({ nodes: 6, readable_nodes: 5, restricted_nodes: 1 });
      // tokens are stable for one caller's view of one chain (so paged edges match), never the id
      const again = (await chain(g.D2, '', guest).expect(200)).body;
      expect(again.nodes.find((n: any) => n.restricted).token).toBe(restricted[0].token);
      expect(JSON.stringify(again)).not.toContain(g.D3);
    });

    it('a guest paging one node at a time sees every edge endpoint among the nodes of the pages (restricted ones too)', async () => {
      const nodes = new Set<string>();
      const edges: Array<{ from: string; to: string }> = [];
      let cursor = '';
      for (let i = 0; i < 20; i++) {
        const page = (await chain(g.D2, `&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, guest).expect(200)).body;
        for (const n of page.nodes) nodes.add(n.restricted ? n.token : n.id);
        edges.push(...page.edges);
        if (!page.page.has_more) break;
        cursor = page.page.next_cursor;
      }
      expect(nodes.size).toBe(6);
      for (const e of edges) {
        expect(nodes.has(e.from)).toBe(true);
        expect(nodes.has(e.to)).toBe(true);
      }
    });

    it('pages with an opaque cursor: every node and edge exactly once', async () => {
      const seenNodes: string[] = [];
      const seenEdges: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const q: string = `&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const b: any = (await chain(g.D2, q).expect(200)).body;
        expect(b.nodes.length).toBeLessThanOrEqual(2);
        seenNodes.push(...b.nodes.map((n: any) => n.id));
        seenEdges.push(...b.edges.map((e: any) => e.id));
        for (const e of b.edges) expect(seenNodes).toEqual(expect.arrayContaining([e.from, e.to]));
        expect(b.page.has_more).toBe(b.page.next_cursor !== null);
        cursor = b.page.next_cursor;
        pages++;
      } while (cursor && pages < 10);
      expect(pages).toBe(3);
      expect(seenNodes).toHaveLength(6);
      expect(new Set(seenNodes).size).toBe(6);
      expect(new Set(seenEdges).size).toBe(5);
      expect(seenEdges).toHaveLength(5);
    });

    it('bad parameters and tampered or foreign cursors are 400', async () => {
      for (const q of [
        '&depth=0',
        '&depth=6',
        '&depth=abc',
        '&depth=-1',
        '&depth=2.5',
        '&depth=99999999999999999999',
        '&limit=0',
        '&limit=101',
        '&limit=abc',
        '&direction=sideways',
        '&direction=1',
        '&cursor=not-a-real-cursor',
        '&cursor=%00',
        '&depth=1&depth=2',
        '&view=chain',
      ]) {
        const r = await chain(g.D2, q);
        expect([q, r.status]).toEqual([q, 400]);
      }
      await org.owner.http.get(`${base(g.D2)}?view=graph`).expect(400);
      const first = (await chain(g.D2, '&limit=1').expect(200)).body.page.next_cursor as string;
      const [payload, sig] = first.split('.');
      const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), o: 0 })).toString('base64url');
      await chain(g.D2, `&limit=1&cursor=${encodeURIComponent(`${forged}.${sig}`)}`).expect(400);
      await chain(g.D2, `&limit=1&cursor=${encodeURIComponent(`${payload}.${sig.slice(0, -2)}${sig.endsWith('AA') ? 'BB' : 'AA'}`)}`).expect(400);
      // the other spellings of the signature's last character decode to the same bytes: refused too
      for (const twin of sameBytesSpellings(sig)) await chain(g.D2, `&limit=1&cursor=${encodeURIComponent(`${payload}.${twin}`)}`).expect(400);
      await chain(g.D1, `&limit=1&cursor=${encodeURIComponent(first)}`).expect(400);
      await chain(g.D2, `&limit=1&direction=upstream&cursor=${encodeURIComponent(first)}`).expect(400);
      await chain(g.D2, `&limit=1&cursor=${encodeURIComponent(first)}`).expect(200);
    });

    it('401, 404 concealment and read-only access for view-only members', async () => {
      await t
        .http()
        .get(`${base(g.D2)}?view=chain`)
        .expect(401);
      await chain(g.D3, '', guest).expect(404);
      await chain(randomUUID()).expect(404);
      await chain(g.D2, '', member).expect(200);
    });

    it('walks a 5,000-issue graph at depth 5 and pages it (speed is measured by npm run bench)', async () => {
      const p = await newProject(t, org);
      // 5,000 issues; issue k is blocked by k-1, k-7 and k-50 (when they exist)
      const seed = randomUUID();
      await t.db.query(
        `INSERT INTO issues (org_id, id, project_id, number, title, status)
         SELECT $1, md5($3 || g)::uuid, $2, g, 'Perf ' || g, CASE WHEN g % 3 = 0 THEN 'done' ELSE 'todo' END FROM generate_series(1, 5000) g`,
        [org.id, p.id, seed],
      );
      await t.db.query(
        `INSERT INTO issue_dependencies (org_id, blocking_issue_id, blocked_issue_id)
         SELECT $1, md5($2 || (g - k))::uuid, md5($2 || g)::uuid FROM generate_series(1, 5000) g, unnest(ARRAY[1, 7, 50]) k WHERE g - k >= 1`,
        [org.id, seed],
      );
      await t.db.query('ANALYZE issue_dependencies; ANALYZE issues');
      const mid = (await t.db.query('SELECT id FROM issues WHERE org_id = $1 AND project_id = $2 AND number = 2500', [org.id, p.id]))[0].id;
      const first = (await chain(mid, '&depth=5&limit=100').expect(200)).body;
      expect(first.nodes).toHaveLength(100);
      expect(first.page.has_more).toBe(true);
      expect(first.counts.nodes).toBeGreaterThan(100);
      const second = (await chain(mid, `&depth=5&limit=100&cursor=${encodeURIComponent(first.page.next_cursor)}`).expect(200)).body;
      const ids = new Set(first.nodes.map((n: any) => n.id));
      for (const n of second.nodes) expect(ids.has(n.id)).toBe(false);
    }, 180_000); // seeding 5,000 issues is slow on a loaded machine; no timing is asserted

    it('a page read before a change is never served after it (status, title, archive, dependencies, columns, access)', async () => {
      const x = await mkIssue(projA.id, 'todo', org, 'Cache X');
      const y = await mkIssue(projA.id, 'todo', org, 'Cache Y');
      await add(y, x).expect(201);
      const node = async (id: string, who: TestUser = org.owner) => (await chain(y, '', who).expect(200)).body.nodes.find((n: any) => n.id === id);
      const version = async () => Number((await t.db.query('SELECT version FROM dependency_graph_versions WHERE org_id = $1', [org.id]))[0].version);
      expect(await node(y)).toMatchObject({ readiness: 'blocked' });
      await setStatus(x, 'done'); // raw SQL: the trigger bumps the version all the same
      expect(await node(y)).toMatchObject({ readiness: 'ready' });
      expect(await node(x)).toMatchObject({ readiness: 'complete' });
      await t.db.query('UPDATE issues SET title = $2 WHERE id = $1', [x, 'Cache X renamed']);
      expect(await node(x)).toMatchObject({ title: 'Cache X renamed' });
      await setStatus(x, 'todo');
      await t.db.query('UPDATE issues SET archived_at = now() WHERE id = $1', [x]);
      expect(await node(x)).toMatchObject({ readiness: 'complete' });
      await t.db.query('UPDATE issues SET archived_at = NULL WHERE id = $1', [x]);
      const z = await mkIssue(projA.id, 'todo', org, 'Cache Z');
      const dep = (await add(z, y).expect(201)).body.dependency;
      expect(await node(z)).toMatchObject({ title: 'Cache Z' });
      await org.owner.http.delete(`${base(z)}/${dep.id}`).expect(200);
      expect(await node(z)).toBeUndefined();
      // the release column's label travels with the edge
      const before = (await chain(y).expect(200)).body.edges.find((e: any) => e.from === x);
      await org.owner.http
        .patch(`/api/orgs/${org.id}/projects/${projA.id}/board-columns/${before.release_condition.column_id}`)
        .send({ label: 'Shipped' })
        .expect(200);
      const after = (await chain(y).expect(200)).body.edges.find((e: any) => e.from === x);
      expect(after.release_condition).toMatchObject({ label: 'Shipped' });
      // access is part of the key: the guest (projA only) never gets the owner's page of projB
      const w = await mkIssue(projB.id, 'todo', org, 'Cache W secret');
      await add(y, w).expect(201);
      expect(await node(w)).toMatchObject({ title: 'Cache W secret' });
      expect(JSON.stringify((await chain(y, '', guest).expect(200)).body)).not.toContain('Cache W secret');
      // issues without dependencies never bump the version
      const lone = await mkIssue(projA.id);
      const v = await version();
      await setStatus(lone, 'in_progress');
      expect(await version()).toBe(v);
    });

    it('an organization with dependencies is deleted whole (the version row goes with it)', async () => {
      const gone = await newOrg(t);
      const p = await newProject(t, gone);
      const a = await mkIssue(p.id, 'todo', gone);
      const b = await mkIssue(p.id, 'todo', gone);
      await gone.owner.http.post(base(b, gone)).send({ blockedByIssueId: a }).expect(201);
      await gone.owner.http.delete(`/api/orgs/${gone.id}`).expect(200);
      expect(await t.db.query('SELECT 1 FROM dependency_graph_versions WHERE org_id = $1', [gone.id])).toHaveLength(0);
      expect(await t.db.query('SELECT 1 FROM issues WHERE org_id = $1', [gone.id])).toHaveLength(0);
    });
  });
});
