import { QueryFailedError, type QueryRunner } from 'typeorm';
import { DomainEvents, IssueActivityEvent, AUTOMATION_ACTOR } from '../../src/common/events/domain-events';
import { TX_MAX_ATTEMPTS, TxRunner } from '../../src/database/tx-runner';
import { bearer, newAgent, newOrg, newProject, newUser, addMember, type TestOrg, uniq } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import { grant } from '../support/issues';

/**
 * Writes under concurrency (issue 12): many agents writing to one organization and one issue at
 * once. Every write takes its row locks in one order and retries serialization failures and
 * deadlocks inside the service, so no client gets a 409 for a conflict it did not cause and every
 * committed write has its timeline entry; an organization without plan limits takes no
 * organization-wide lock; limited plans stay exact; per-project numbers stay gap-free across
 * processes.
 */
describe('write concurrency', () => {
  let t: TestApp;
  let org: TestOrg;
  let proj: { id: string; key: string };
  /** Organization agents (role member) with edit on `proj`. */
  let agents: Array<ReturnType<typeof bearer>>;
  /** An agent that only reads `proj` (member baseline, no grant). */
  let reader: ReturnType<typeof bearer>;
  const issues = (rest = '') => `/api/orgs/${org.id}/issues${rest}`;

  const timeline = async (issueId: string, action: string) =>
    (await t.db.query('SELECT metadata FROM activity_events WHERE org_id = $1 AND issue_id = $2 AND action = $3 ORDER BY created_at, id', [
      org.id,
      issueId,
      action,
    ])) as Array<{ metadata: Record<string, any> }>;

  beforeAll(async () => {
    t = await startTestApp();
    org = await newOrg(t);
    proj = await newProject(t, org);
    agents = [];
    for (let n = 0; n < 5; n++) {
      const a = await newAgent(t, org, { role: 'member' });
      await grant(org, proj.id, a.memberId, 'edit');
      agents.push(bearer(t, a.key));
    }
    reader = bearer(t, (await newAgent(t, org, { role: 'member' })).key);
  });
  afterAll(() => t.close());

  const agent = (n: number) => agents[n % agents.length];

  it('20 parallel subtask creates, comments and updates on one issue all succeed, each with its timeline entry', async () => {
    const parent = (await agent(0).post(issues()).send({ title: 'parent', projectId: proj.id }).expect(201)).body.issue;
    const subtasks = Array.from({ length: 20 }, (_, n) =>
      agent(n)
        .post(issues(`/${parent.id}/subtasks`))
        .send({ title: `child ${n}` }),
    );
    const comments = Array.from({ length: 20 }, (_, n) =>
      agent(n + 1)
        .post(issues(`/${parent.id}/comments`))
        .send({ body: `comment ${n}` }),
    );
    const updates = Array.from({ length: 20 }, (_, n) =>
      agent(n + 2)
        .patch(issues(`/${parent.id}`))
        .send({ title: `parent v${n}`, priority: n % 4, status: ['todo', 'in_progress', 'backlog'][n % 3] }),
    );
    // requests that must fail for their own reasons, never with a conflict: view-only 403, bad input 400
    const refused = [
      reader.post(issues(`/${parent.id}/comments`)).send({ body: 'no' }),
      agent(3)
        .patch(issues(`/${parent.id}`))
        .send({ priority: 9 }),
    ];
    const [s, c, u, r] = await Promise.all([Promise.all(subtasks), Promise.all(comments), Promise.all(updates), Promise.all(refused)]);
    expect(s.map((x) => x.status)).toEqual(Array(20).fill(201));
    expect(c.map((x) => x.status)).toEqual(Array(20).fill(201));
    expect(u.map((x) => x.status)).toEqual(Array(20).fill(200));
    expect(r.map((x) => x.status)).toEqual([403, 400]);

    // numbers: gap-free after the parent's
    const numbers = s.map((x) => x.body.subtask.number as number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, n) => parent.number + 1 + n));
    // every write has its entry
    const subtaskEntries = await timeline(parent.id, 'subtask.created');
    expect(subtaskEntries.map((e) => e.metadata.subtask_id).sort()).toEqual(s.map((x) => x.body.subtask.id).sort());
    for (const x of s) expect(await timeline(x.body.subtask.id, 'issue.created')).toHaveLength(1);
    const commentEntries = await timeline(parent.id, 'comment.created');
    expect(commentEntries.map((e) => e.metadata.comment_id).sort()).toEqual(c.map((x) => x.body.comment.id).sort());
    const updated = await timeline(parent.id, 'issue.updated');
    expect(updated).toHaveLength(20);
    for (const e of updated) expect(e.metadata.changed_fields).toContain('title');
    // the listed children and the comments are all there
    expect(
      (
        await agent(0)
          .get(issues(`/${parent.id}/subtasks`))
          .expect(200)
      ).body.total,
    ).toBe(20);
    expect(
      (
        await agent(0)
          .get(issues(`/${parent.id}/comments?limit=100`))
          .expect(200)
      ).body.comments,
    ).toHaveLength(20);
  });

  it('parallel PATCHes of one issue lose no update: the last write wins per field and every change is in the timeline', async () => {
    const issue = (await agent(0).post(issues()).send({ title: 'patched', projectId: proj.id }).expect(201)).body.issue;
    // every PATCH sets a unique title and one more field: a description (even) or a due date (odd)
    const bodies = Array.from({ length: 20 }, (_, n) =>
      n % 2 === 0 ? { title: `title ${n}`, description: `description ${n}` } : { title: `title ${n}`, dueDate: `2031-01-${String(n + 1).padStart(2, '0')}` },
    );
    const res = await Promise.all(
      bodies.map((b, n) =>
        agent(n)
          .patch(issues(`/${issue.id}`))
          .send(b),
      ),
    );
    expect(res.map((x) => x.status)).toEqual(Array(20).fill(200));

    const entries = await timeline(issue.id, 'issue.updated');
    expect(entries.map((e) => [...e.metadata.changed_fields].sort().join(',')).sort()).toEqual(
      [...Array(10).fill('description,title'), ...Array(10).fill('due_date,title')].sort(),
    );
    // the PATCH whose title stayed committed last: its response (read under the row lock, after
    // every earlier commit) is the final state, field by field
    const final = (
      await agent(0)
        .get(issues(`/${issue.id}`))
        .expect(200)
    ).body.issue;
    const last = res.find((x) => x.body.issue.title === final.title)!.body.issue;
    for (const field of ['title', 'description', 'due_date', 'priority', 'status']) expect(final[field]).toEqual(last[field]);
    expect(bodies.map((b) => b.description).filter(Boolean)).toContain(final.description);
    expect(bodies.map((b) => b.dueDate).filter(Boolean)).toContain(final.due_date);
    // every response shows one consistent state: its own fields, and earlier ones never reverted to the original
    for (const [n, x] of res.entries()) {
      expect(x.body.issue.title).toBe(bodies[n].title);
      if (bodies[n].description) expect(x.body.issue.description).toBe(bodies[n].description);
      if (bodies[n].dueDate) expect(x.body.issue.due_date).toBe(bodies[n].dueDate);
    }
  });

  it('a limited plan stays exact: 40 parallel creates at 245 of 250 active issues end with exactly 250', async () => {
    const o = await newOrg(t);
    const p = await newProject(t, o);
    const a = await newAgent(t, o, { role: 'admin' });
    const http = bearer(t, a.key);
    await t.db.query(`UPDATE organizations SET plan = 'free' WHERE id = $1`, [o.id]);
    await t.db.query(
      `INSERT INTO issues (org_id, id, project_id, number, title, status) SELECT $1, gen_random_uuid(), NULL, 1000 + g, 'fill', 'todo' FROM generate_series(1, 245) g`,
      [o.id],
    );
    const res = await Promise.all(
      Array.from({ length: 40 }, (_, n) =>
        n % 5 === 4
          ? http.post(`/api/orgs/${o.id}/issues/bulk`).send({ issues: [{ title: `bulk ${n}`, projectId: p.id }] })
          : (n % 2 ? http : o.owner.http).post(`/api/orgs/${o.id}/issues`).send({ title: `race ${n}`, projectId: p.id }),
      ),
    );
    expect(res.filter((r) => r.status === 201)).toHaveLength(5);
    const refused = res.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(35);
    for (const r of refused) expect(r.body).toMatchObject({ code: 'PLAN_LIMIT_REACHED', resource: 'activeIssues', limit: 250 });
    const [{ n }] = await t.db.query(
      `SELECT count(*)::int AS n FROM issues WHERE org_id = $1 AND archived_at IS NULL AND status NOT IN ('done', 'cancelled')`,
      [o.id],
    );
    expect(n).toBe(250);
    // the created ones are numbered 1..5 in the project, without gaps
    const numbers = res
      .filter((r) => r.status === 201)
      .map((r) => (r.body.issue ?? r.body.issues[0]).number as number)
      .sort((x, y) => x - y);
    expect(numbers).toEqual([1, 2, 3, 4, 5]);
  });

  it('an organization without plan limits takes no organization-wide lock on its write path', async () => {
    const issue = (await agent(0).post(issues()).send({ title: 'unlocked', projectId: proj.id }).expect(201)).body.issue;
    const qr: QueryRunner = t.db.createQueryRunner();
    await qr.connect();
    let held = true;
    try {
      await qr.startTransaction();
      // the strongest lock that still lets foreign-key checks (KEY SHARE) through
      await qr.query('SELECT 1 FROM organizations WHERE id = $1 FOR NO KEY UPDATE', [org.id]);
      const writes = Promise.all([
        agent(1).post(issues()).send({ title: 'while locked', projectId: proj.id }),
        agent(2)
          .post(issues('/bulk'))
          .send({ issues: [{ title: 'bulk while locked', projectId: proj.id }] }),
        agent(3)
          .patch(issues(`/${issue.id}`))
          .send({ status: 'todo', priority: 1 }),
        agent(4)
          .post(issues(`/${issue.id}/comments`))
          .send({ body: 'while locked' }),
        agent(0)
          .post(issues(`/${issue.id}/subtasks`))
          .send({ title: 'while locked' }),
      ]);
      // never hang the suite: release after a generous bound, then the check below fails
      let timer: NodeJS.Timeout | undefined;
      const bail = new Promise<void>((res) => {
        timer = setTimeout(() => {
          held = false;
          void qr.rollbackTransaction().then(() => res());
        }, 20_000);
      });
      const done = await Promise.race([writes.then((r) => ({ r, held })), bail.then(() => null)]);
      clearTimeout(timer);
      expect(done?.held).toBe(true);
      expect(done!.r.map((x) => x.status)).toEqual([201, 201, 200, 201, 201]);
    } finally {
      if (qr.isTransactionActive) await qr.rollbackTransaction();
      await qr.release();
    }
  });

  describe('TxRunner', () => {
    it('a deadlock between two writers is retried inside the service: both commit, and what the lost attempt staged is written once', async () => {
      const runner = t.app.get(TxRunner);
      const events = t.app.get(DomainEvents);
      const a = (await agent(0).post(issues()).send({ title: 'lock A', projectId: proj.id }).expect(201)).body.issue;
      const b = (await agent(0).post(issues()).send({ title: 'lock B', projectId: proj.id }).expect(201)).body.issue;
      let locked = 0;
      let release!: () => void;
      const bothLocked = new Promise<void>((r) => (release = r));
      const attempts = { ab: 0, ba: 0 };
      // opposite lock orders on purpose: PostgreSQL aborts one of them with 40P01 (deadlock_detected)
      const writer = (first: string, second: string, key: 'ab' | 'ba') =>
        runner.run(async (m) => {
          attempts[key] += 1;
          await events.stage(m, new IssueActivityEvent(org.id, first, proj.id, null, AUTOMATION_ACTOR, 'test.retried', { key }));
          await m.query('SELECT 1 FROM issues WHERE org_id = $1 AND id = $2 FOR NO KEY UPDATE', [org.id, first]);
          if (++locked === 2) release();
          await bothLocked;
          await m.query('SELECT 1 FROM issues WHERE org_id = $1 AND id = $2 FOR NO KEY UPDATE', [org.id, second]);
          return key;
        });
      expect(await Promise.all([writer(a.id, b.id, 'ab'), writer(b.id, a.id, 'ba')])).toEqual(['ab', 'ba']);
      expect(attempts.ab + attempts.ba).toBe(3);
      expect((await timeline(a.id, 'test.retried')).map((e) => e.metadata.key)).toEqual(['ab']);
      expect((await timeline(b.id, 'test.retried')).map((e) => e.metadata.key)).toEqual(['ba']);
    });

    it('retries are bounded: a race lost every time ends after TX_MAX_ATTEMPTS attempts with the database error; other errors are not retried', async () => {
      const runner = t.app.get(TxRunner);
      let n = 0;
      const lost = new QueryFailedError('SELECT 1', [], Object.assign(new Error('could not serialize access'), { code: '40001' }));
      await expect(
        runner.run(() => {
          n += 1;
          return Promise.reject(lost);
        }),
      ).rejects.toBe(lost);
      expect(n).toBe(TX_MAX_ATTEMPTS);
      // any other error is not retried
      n = 0;
      await expect(
        runner.run(() => {
          n += 1;
          return Promise.reject(new Error('plain'));
        }),
      ).rejects.toThrow('plain');
      expect(n).toBe(1);
    });
  });

  // last: passport strategies are process-wide, so the most recently started app authenticates
  // every app's requests; nothing may run on `t` after `second` has closed
  it('per-project numbers stay gap-free under parallel creates from two processes (single and bulk)', async () => {
    const second = await startTestApp();
    try {
      const p = await newProject(t, org);
      const owner2 = await newUser(second, 'owner2');
      await addMember(t, org, owner2, 'admin');
      const login = owner2.http; // a session of the second process
      const first = () => org.owner.http.post(issues()).send({ title: uniq('p1'), projectId: p.id });
      const other = (n: number) =>
        n % 4 === 0
          ? login.post(issues('/bulk')).send({ issues: [0, 1, 2].map((k) => ({ title: `p2 bulk ${n}.${k}`, projectId: p.id })) })
          : login.post(issues()).send({ title: `p2 ${n}`, projectId: p.id });
      const res = await Promise.all([...Array.from({ length: 15 }, () => first()), ...Array.from({ length: 12 }, (_, n) => other(n))]);
      for (const r of res) expect(r.status).toBe(201);
      const numbers = res.flatMap((r) => (r.body.issues ?? [r.body.issue]).map((i: { number: number }) => i.number)).sort((a, b) => a - b);
      expect(numbers).toEqual(Array.from({ length: 15 + 9 + 3 * 3 }, (_, n) => n + 1));
    } finally {
      await second.close();
    }
  });
});
