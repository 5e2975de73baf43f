import { randomUUID } from 'node:crypto';
import { afterEach, jest } from '@jest/globals';
import { AccessPolicyService } from '../../src/common/access/access-policy.service';
import { ReadModels, STRATEGY_AUDIT } from '../../src/common/cache/read-models';
import { Clock } from '../../src/common/clock/clock';
import { StrategyAuditHandler } from '../../src/modules/strategy/queries/strategy-audit/strategy-audit.handler';
import { addMember, newOrg, newProject, newUser, type TestOrg, type TestUser, uniq } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import { insertIssue } from '../support/issues';

/**
 * The kept strategy audit (read model STRATEGY_AUDIT): served again while nothing it reads
 * changed, recomputed at once after any change to a table it reads (data versions bumped at
 * commit, migrations 1765000000000 and 1765100000000), never shared across visibilities, expired
 * by age (the findings depend on the clock), one computation for concurrent identical misses.
 * "Computed" is observed by counting calls of the handler's `compute` (the loads and the judging).
 */
describe('strategy audit cache', () => {
  let t: TestApp;
  let handler: StrategyAuditHandler;
  let compute: ReturnType<typeof spyCompute>;
  let org: TestOrg;
  let member: TestUser;
  let proj: { id: string };
  const o = (p: string, orgId = org.id) => `/api/orgs/${orgId}${p}`;
  const q = (sql: string, params: unknown[], orgId = org.id) => t.db.query(sql, [orgId, ...params]);

  const spyCompute = (h: StrategyAuditHandler) => jest.spyOn(h, 'compute');
  const audit = async (as: TestUser = org.owner, orgId = org.id, query = '') => (await as.http.get(o(`/strategy/audit${query}`, orgId)).expect(200)).body;
  const has = (a: any, type: string, key: string, id: string) => a.findings.some((f: any) => f.type === type && f[key] === id);

  // fixtures in SQL (as strategy-audit.e2e-spec.ts), committed one statement at a time
  const goal = async (status = 'active', orgId = org.id) => {
    const id = randomUUID();
    await q('INSERT INTO goals (org_id, id, title, status) VALUES ($1, $2, $3, $4)', [id, uniq('goal'), status], orgId);
    return id;
  };
  const kpi = async (f: { goalId?: string | null; target?: number | null; projectId?: string | null } = {}) => {
    const id = randomUUID();
    await q('INSERT INTO kpis (org_id, id, goal_id, name, target_value, project_id) VALUES ($1, $2, $3, $4, $5, $6)', [
      id,
      f.goalId ?? null,
      uniq('kpi'),
      f.target === undefined ? 100 : f.target,
      f.projectId ?? null,
    ]);
    return id;
  };
  const initiative = async (f: { goalId?: string | null; projectId?: string | null; status?: string } = {}) => {
    const id = randomUUID();
    const title = uniq('ini');
    await q('INSERT INTO initiatives (org_id, id, title, name, goal_id, project_id, status) VALUES ($1, $2, $3, $3, $4, $5, $6)', [
      id,
      title,
      f.goalId ?? null,
      f.projectId ?? null,
      f.status ?? 'active',
    ]);
    return id;
  };
  const linkIssue = (ini: string, issue: string) => q('INSERT INTO initiative_issues (org_id, initiative_id, issue_id) VALUES ($1, $2, $3)', [ini, issue]);
  const milestone = async (projectId: string, targetDate: string | null) => {
    const id = randomUUID();
    await q(`INSERT INTO milestones (org_id, id, project_id, name, target_date, status) VALUES ($1, $2, $3, $4, $5, 'active')`, [
      id,
      projectId,
      uniq('ms'),
      targetDate,
    ]);
    return id;
  };
  const linkMilestone = (ini: string, m: string) => q('INSERT INTO initiative_milestones (org_id, initiative_id, milestone_id) VALUES ($1, $2, $3)', [ini, m]);
  const target = async (ini: string, targetDate: string | null = null) => {
    const id = randomUUID();
    await q(
      `INSERT INTO initiative_targets (org_id, id, initiative_id, title, mode, current_value, target_value, target_date) VALUES ($1, $2, $3, $4, 'gate', 0, 3, $5)`,
      [id, ini, uniq('target'), targetDate],
    );
    return id;
  };
  const issue = async (s: { status?: string; dueDate?: string | null; projectId?: string | null } = {}) =>
    (await insertIssue(t, org.id, s.projectId === undefined ? proj.id : s.projectId, { status: s.status ?? 'todo', dueDate: s.dueDate ?? null })).id;

  beforeAll(async () => {
    t = await startTestApp();
    handler = t.app.get(StrategyAuditHandler, { strict: false });
    org = await newOrg(t);
    member = await newUser(t, 'member');
    await addMember(t, org, member, 'member');
    proj = await newProject(t, org);
  });
  beforeEach(() => {
    compute = spyCompute(handler);
  });
  afterEach(() => {
    jest.restoreAllMocks();
  });
  afterAll(() => t.close());

  it('a repeated audit is served from the cache (same body, no second computation), for every severity filter', async () => {
    const g = await goal();
    const first = await audit();
    expect(has(first, 'goal_missing_kpi', 'goal_id', g)).toBe(true);
    expect(compute).toHaveBeenCalledTimes(1);
    const second = await audit();
    expect(second).toEqual(first); // including summary.generated_at: the evaluation it was kept from
    // the severity filter is applied per request to the kept, unfiltered findings
    const warnings = await audit(org.owner, org.id, '?severity=warning');
    expect(warnings.findings).toEqual(first.findings.filter((f: any) => f.severity === 'warning'));
    expect(warnings.summary.total).toBe(warnings.findings.length);
    expect(warnings.summary.generated_at).toBe(first.summary.generated_at);
    const bad = await org.owner.http.get(o('/strategy/audit?severity=urgent')).expect(400);
    expect(bad.headers['content-type']).toMatch(/^application\/json/);
    expect(bad.body.code).toBeDefined();
    // the kept response is sent as JSON bytes serialized once (the same bytes again)
    const raw1 = await org.owner.http
      .get(o('/strategy/audit'))
      .set('accept-encoding', 'identity')
      .buffer(true)
      .parse((res, cb) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => cb(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(raw1.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(raw1.headers['content-length'])).toBe((raw1.body as Buffer).length);
    expect(JSON.parse((raw1.body as Buffer).toString('utf8'))).toEqual(first);
    // members share the owners' result (both read every project: visibility 'all')
    expect(await audit(member)).toEqual(first);
    expect(compute).toHaveBeenCalledTimes(1);
  });

  it('the kept audit goes out gzipped (compressed once) to clients that accept it, as is to the others', async () => {
    for (let i = 0; i < 5; i++) await goal(); // enough findings for a body worth compressing
    // superagent decompresses gzip bodies itself: the headers tell what went over the wire
    const get = (acceptEncoding: string) => org.owner.http.get(o('/strategy/audit')).set('accept-encoding', acceptEncoding).expect(200);
    const plain = await get('identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    const size = Number(plain.headers['content-length']);
    expect(plain.body.findings.length).toBeGreaterThanOrEqual(5);
    for (const accepted of ['gzip', 'br, gzip;q=0.8, deflate', '*']) {
      const z = await get(accepted);
      expect(z.headers['content-encoding']).toBe('gzip');
      expect(z.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Number(z.headers['content-length'])).toBeLessThan(size);
      expect(z.body).toEqual(plain.body);
    }
    for (const refused of ['gzip;q=0', 'identity', 'br', 'deflate']) {
      const r = await get(refused);
      expect(r.headers['content-encoding']).toBeUndefined();
      expect(Number(r.headers['content-length'])).toBe(size);
      expect(r.body).toEqual(plain.body);
    }
    expect(compute).toHaveBeenCalledTimes(1);
  });

  it('guests are refused before any cache use, even with a kept audit', async () => {
    const guest = await newUser(t, 'guest');
    await addMember(t, org, guest, 'guest');
    await audit();
    const body = (await guest.http.get(o('/strategy/audit')).expect(403)).body;
    expect(body.findings).toBeUndefined();
    expect(body.code).toBeDefined();
  });

  /**
   * Each case: a fixture, an audit that is then served from the cache (so a missing invalidation
   * would serve the stale answer), the change (committed), and the very next audit reflects it.
   */
  const cases: Array<[string, () => Promise<{ change: () => Promise<unknown>; shows: (a: any) => boolean }>]> = [
    [
      'goal created (API)',
      async () => {
        let id = '';
        return {
          change: async () =>
            (id = (
              await org.owner.http
                .post(o('/goals'))
                .send({ title: uniq('Goal') })
                .expect(201)
            ).body.goal.id),
          shows: (a) => !!id && has(a, 'goal_missing_kpi', 'goal_id', id),
        };
      },
    ],
    [
      'goal paused (goals)',
      async () => {
        const g = await goal();
        return {
          change: () => q(`UPDATE goals SET status = 'paused' WHERE org_id = $1 AND id = $2`, [g]),
          shows: (a) => !has(a, 'goal_missing_kpi', 'goal_id', g),
        };
      },
    ],
    [
      'KPI target removed (kpis)',
      async () => {
        const k = await kpi({ goalId: await goal() });
        return {
          change: () => q('UPDATE kpis SET target_value = NULL WHERE org_id = $1 AND id = $2', [k]),
          shows: (a) => has(a, 'kpi_missing_target', 'kpi_id', k),
        };
      },
    ],
    [
      'KPI snapshot recorded (API: kpi_snapshots + kpis)',
      async () => {
        const k = await kpi({ goalId: await goal() });
        return {
          change: () =>
            org.owner.http
              .post(o(`/kpis/${k}/snapshots`))
              .send({ value: 100 })
              .expect(201),
          shows: (a) => !has(a, 'kpi_unrecorded', 'kpi_id', k),
        };
      },
    ],
    [
      'KPI snapshot row alone (kpi_snapshots)',
      async () => {
        const k = await kpi({ goalId: await goal() });
        return {
          change: () => q(`INSERT INTO kpi_snapshots (org_id, kpi_id, value, source) VALUES ($1, $2, 1, 'manual')`, [k]),
          shows: (a) => !has(a, 'kpi_unrecorded', 'kpi_id', k),
        };
      },
    ],
    [
      'initiative paused (initiatives)',
      async () => {
        const n = await initiative({ goalId: await goal(), projectId: proj.id });
        return {
          change: () => q(`UPDATE initiatives SET status = 'paused' WHERE org_id = $1 AND id = $2`, [n]),
          shows: (a) => !has(a, 'initiative_missing_execution', 'initiative_id', n),
        };
      },
    ],
    [
      'KPI impact linked (API: initiative_kpi_impacts)',
      async () => {
        const n = await initiative({ goalId: await goal(), projectId: proj.id });
        const k = await kpi({ projectId: proj.id });
        return {
          change: () =>
            org.owner.http
              .post(o(`/initiatives/${n}/kpi-impacts`))
              .send({ kpi_id: k })
              .expect(201),
          shows: (a) => !has(a, 'initiative_missing_impact', 'initiative_id', n),
        };
      },
    ],
    [
      'project linked to the initiative (initiative_projects)',
      async () => {
        const other = await newProject(t, org);
        const n = await initiative({ goalId: await goal(), projectId: proj.id });
        const m = await milestone(other.id, null);
        await linkMilestone(n, m);
        return {
          change: () => q('INSERT INTO initiative_projects (org_id, initiative_id, project_id) VALUES ($1, $2, $3)', [n, other.id]),
          shows: (a) => !has(a, 'dangling_initiative_milestone', 'milestone_id', m),
        };
      },
    ],
    [
      'milestone completed (milestones)',
      async () => {
        const n = await initiative({ goalId: await goal(), projectId: proj.id });
        const m = await milestone(proj.id, '2020-01-01');
        await linkMilestone(n, m);
        return {
          change: () => q(`UPDATE milestones SET status = 'completed' WHERE org_id = $1 AND id = $2`, [m]),
          shows: (a) => !has(a, 'milestone_overdue', 'milestone_id', m),
        };
      },
    ],
    [
      'milestone linked to the initiative (initiative_milestones)',
      async () => {
        const n = await initiative({ goalId: await goal(), projectId: proj.id });
        const m = await milestone(proj.id, null);
        return { change: () => linkMilestone(n, m), shows: (a) => !has(a, 'initiative_missing_execution', 'initiative_id', n) };
      },
    ],
    [
      'target date passed (initiative_targets)',
      async () => {
        const n = await initiative({ goalId: await goal(), projectId: proj.id });
        const x = await target(n, '2099-01-01');
        return {
          change: () => q(`UPDATE initiative_targets SET target_date = '2020-01-01' WHERE org_id = $1 AND id = $2`, [x]),
          shows: (a) => has(a, 'initiative_target_overdue', 'initiative_target_id', x),
        };
      },
    ],
    [
      'issue linked to the target (initiative_target_issues)',
      async () => {
        const n = await initiative({ goalId: await goal(), projectId: proj.id });
        const x = await target(n);
        const i = await issue();
        return {
          change: () => q('INSERT INTO initiative_target_issues (org_id, target_id, issue_id) VALUES ($1, $2, $3)', [x, i]),
          shows: (a) => !has(a, 'initiative_target_missing_execution', 'initiative_target_id', x),
        };
      },
    ],
    [
      'milestone linked to the target (initiative_target_milestones)',
      async () => {
        const n = await initiative({ goalId: await goal(), projectId: proj.id });
        const x = await target(n);
        const m = await milestone(proj.id, null);
        return {
          change: () => q('INSERT INTO initiative_target_milestones (org_id, target_id, milestone_id) VALUES ($1, $2, $3)', [x, m]),
          shows: (a) => !has(a, 'initiative_target_missing_execution', 'initiative_target_id', x),
        };
      },
    ],
    [
      'issue status → done (API: issues)',
      async () => {
        const n = await initiative({ goalId: await goal(), projectId: proj.id });
        const i = await issue({ dueDate: '2020-01-15' });
        await linkIssue(n, i);
        return {
          change: () =>
            org.owner.http
              .patch(o(`/issues/${i}`))
              .send({ status: 'done' })
              .expect(200),
          shows: (a) => !has(a, 'issue_overdue', 'issue_id', i),
        };
      },
    ],
    [
      'issue archived (API: issues)',
      async () => {
        const n = await initiative({ goalId: await goal(), projectId: proj.id });
        const i = await issue();
        await linkIssue(n, i);
        return { change: () => org.owner.http.post(o(`/issues/${i}/archive`)).expect(200), shows: (a) => has(a, 'dangling_initiative_issue', 'issue_id', i) };
      },
    ],
    [
      'dependency added (API: issue_dependencies)',
      async () => {
        const n = await initiative({ goalId: await goal(), projectId: proj.id });
        const i = await issue();
        const blocker = await issue();
        await linkIssue(n, i);
        return {
          change: () =>
            org.owner.http
              .post(o(`/issues/${i}/dependencies`))
              .send({ blockedByIssueId: blocker })
              .expect(201),
          shows: (a) => has(a, 'issue_blocked', 'issue_id', i),
        };
      },
    ],
    [
      'issue linked to the initiative (initiative_issues)',
      async () => {
        const n = await initiative({ goalId: await goal(), projectId: proj.id });
        const i = await issue();
        return { change: () => linkIssue(n, i), shows: (a) => !has(a, 'initiative_missing_execution', 'initiative_id', n) };
      },
    ],
    [
      'linked project archived (projects)',
      async () => {
        const other = await newProject(t, org);
        const n = await initiative({ goalId: await goal(), projectId: proj.id });
        await q('INSERT INTO initiative_projects (org_id, initiative_id, project_id) VALUES ($1, $2, $3)', [n, other.id]);
        return {
          change: () => q(`UPDATE projects SET status = 'archived' WHERE org_id = $1 AND id = $2`, [other.id]),
          shows: (a) => has(a, 'dangling_initiative_project', 'project_id', other.id),
        };
      },
    ],
  ];

  it.each(cases)('invalidates on a change: %s (the next audit reflects it)', async (_name, prepare) => {
    const { change, shows } = await prepare();
    const before = await audit();
    expect(shows(before)).toBe(false);
    const calls = compute.mock.calls.length;
    expect(await audit()).toEqual(before); // kept: without invalidation the change would be missed
    expect(compute.mock.calls.length).toBe(calls);
    await change();
    const after = await audit();
    expect(shows(after)).toBe(true);
    expect(compute.mock.calls.length).toBe(calls + 1);
  });

  it("callers with different visibility never see each other's kept evidence", async () => {
    // Today every non-guest reads every project; a caller limited to some projects (as the access
    // policy can report) is simulated by the policy's answer for one request.
    const access = t.app.get(AccessPolicyService);
    const a = await newProject(t, org);
    const b = await newProject(t, org);
    const inA = await initiative({ goalId: await goal(), projectId: a.id });
    const inB = await initiative({ goalId: await goal(), projectId: b.id });
    const asIfOnly = (ids: string[]) => jest.spyOn(access, 'readableProjects').mockResolvedValueOnce(ids);

    asIfOnly([a.id]);
    const onlyA = await audit(member);
    asIfOnly([b.id]);
    const onlyB = await audit(member);
    const all = await audit(member);
    expect(has(onlyA, 'initiative_missing_execution', 'initiative_id', inA)).toBe(true);
    expect(has(onlyA, 'initiative_missing_execution', 'initiative_id', inB)).toBe(false);
    expect(has(onlyB, 'initiative_missing_execution', 'initiative_id', inB)).toBe(true);
    expect(has(onlyB, 'initiative_missing_execution', 'initiative_id', inA)).toBe(false);
    expect(onlyA.findings.some((f: any) => f.project_id === b.id)).toBe(false);
    expect(onlyB.findings.some((f: any) => f.project_id === a.id)).toBe(false);
    expect(has(all, 'initiative_missing_execution', 'initiative_id', inA) && has(all, 'initiative_missing_execution', 'initiative_id', inB)).toBe(true);
    expect(compute).toHaveBeenCalledTimes(3);

    // each visibility keeps its own result; the same set in another order is the same visibility
    asIfOnly([b.id]);
    expect(await audit(member)).toEqual(onlyB);
    asIfOnly([a.id]);
    expect(await audit(member)).toEqual(onlyA);
    asIfOnly([b.id, a.id]);
    const both = await audit(member);
    asIfOnly([a.id, b.id]);
    expect(await audit(member)).toEqual(both);
    expect(compute).toHaveBeenCalledTimes(4);
  });

  it('organizations never share kept audits', async () => {
    const other = await newOrg(t);
    const g = await goal('active', other.id);
    const mine = await audit();
    const theirs = await audit(other.owner, other.id);
    expect(has(theirs, 'goal_missing_kpi', 'goal_id', g)).toBe(true);
    expect(has(mine, 'goal_missing_kpi', 'goal_id', g)).toBe(false);
  });

  /** A KPI that becomes stale by time alone: stale after 1 hour, recorded 59 min 40 s ago. */
  const staleSoonKpi = async () => {
    const k = await kpi({ goalId: await goal() });
    await q(`INSERT INTO kpi_snapshots (org_id, kpi_id, value, source, created_at) VALUES ($1, $2, 1, 'manual', now() - interval '3580 seconds')`, [k]);
    await q(`UPDATE kpis SET stale_after_hours = 1, current_value = 1, last_recorded_at = now() - interval '3580 seconds' WHERE org_id = $1 AND id = $2`, [k]);
    return k;
  };
  /** The app's Clock, ahead of real time by `offsetMs()` (restored after each test). */
  const movableClock = (offsetMs: () => number) => {
    const clock = t.app.get(Clock);
    const real = clock.now.bind(clock);
    jest.spyOn(clock, 'now').mockImplementation(() => new Date(real().getTime() + offsetMs()));
  };

  it('a kept audit expires after the max age (the clock moves, the data does not)', async () => {
    const k = await staleSoonKpi();
    let offsetMs = 0;
    movableClock(() => offsetMs);
    const first = await audit();
    expect(has(first, 'kpi_stale', 'kpi_id', k)).toBe(false);
    const calls = compute.mock.calls.length;
    // 30 s later the KPI is stale, but the kept audit (younger than the 60 s max age) is served:
    // the documented bound on how late a time-driven finding may appear
    offsetMs = 30_000;
    const young = await audit();
    expect(young).toEqual(first);
    expect(compute.mock.calls.length).toBe(calls);
    // past the max age it is computed again and the finding appears
    offsetMs = 61_000;
    const aged = await audit();
    expect(compute.mock.calls.length).toBe(calls + 1);
    expect(has(aged, 'kpi_stale', 'kpi_id', k)).toBe(true);
    expect(Date.parse(aged.summary.generated_at) - Date.parse(first.summary.generated_at)).toBeGreaterThanOrEqual(61_000);
    // a clock moved back before the kept evaluation does not serve the future result
    offsetMs = 0;
    const back = await audit();
    expect(compute.mock.calls.length).toBe(calls + 2);
    expect(has(back, 'kpi_stale', 'kpi_id', k)).toBe(false);
  });

  it('past three quarters of the max age the kept audit is still served and refreshed in the background', async () => {
    const k = await staleSoonKpi();
    let offsetMs = 0;
    movableClock(() => offsetMs);
    const first = await audit();
    expect(has(first, 'kpi_stale', 'kpi_id', k)).toBe(false);
    const calls = compute.mock.calls.length;
    offsetMs = 50_000; // past 45 s (refresh), before 60 s (max age)
    const served = await audit();
    expect(served).toEqual(first); // nobody waits for the refresh
    expect(compute.mock.calls.length).toBe(calls + 1); // ...which started in the background
    await compute.mock.results[compute.mock.results.length - 1].value;
    const refreshed = await audit();
    expect(compute.mock.calls.length).toBe(calls + 1);
    expect(has(refreshed, 'kpi_stale', 'kpi_id', k)).toBe(true);
    expect(Date.parse(refreshed.summary.generated_at) - Date.parse(first.summary.generated_at)).toBeGreaterThanOrEqual(50_000);
  });

  it('concurrent identical misses compute once (single flight)', async () => {
    await goal(); // a new version: nothing kept for it
    const n = 6;
    // hold the one computation until every request has asked the cache, so none can be a plain hit
    const cache = t.app.get(ReadModels).cache(STRATEGY_AUDIT) as unknown as { through: (...a: unknown[]) => unknown };
    let asked = 0;
    let release!: () => void;
    const allAsked = new Promise<void>((r) => (release = r));
    const through = cache.through.bind(cache);
    jest.spyOn(cache, 'through').mockImplementation((...args: unknown[]) => {
      if (++asked === n) release();
      return through(...args);
    });
    const original = compute.getMockImplementation() ?? StrategyAuditHandler.prototype.compute;
    compute.mockImplementation(async function (this: StrategyAuditHandler, ...args: Parameters<StrategyAuditHandler['compute']>) {
      await allAsked;
      return original.apply(this, args);
    });
    const bodies = await Promise.all(Array.from({ length: n }, () => audit()));
    expect(asked).toBe(n);
    expect(compute).toHaveBeenCalledTimes(1);
    for (const b of bodies) expect(b).toEqual(bodies[0]);
  });

  it('the database bumps the strategy version once per committed transaction, never on rollback or a no-op', async () => {
    const version = async (scope: string) =>
      Number((await t.db.query('SELECT sum(version) AS version FROM data_versions WHERE org_id = $1 AND scope = $2', [org.id, scope]))[0].version);
    const g = await goal();
    const k = await kpi({ goalId: g });
    const v0 = await version('strategy');
    const i0 = await version('issues');

    // many rows of several tables in one transaction: one bump, at commit
    await t.db.transaction(async (m) => {
      await m.query('INSERT INTO goals (org_id, title) VALUES ($1, $2), ($1, $3)', [org.id, uniq('g'), uniq('g')]);
      await m.query(`UPDATE goals SET status = 'paused' WHERE org_id = $1 AND id = $2`, [org.id, g]);
      await m.query(`INSERT INTO kpi_snapshots (org_id, kpi_id, value, source) SELECT $1, $2, s, 'manual' FROM generate_series(1, 5) s`, [org.id, k]);
      await m.query(`UPDATE kpis SET current_value = 5 WHERE org_id = $1 AND id = $2`, [org.id, k]);
      // not visible to others before the commit (the deferred trigger runs at COMMIT)
      expect(await version('strategy')).toBe(v0);
    });
    expect(await version('strategy')).toBe(v0 + 1);
    expect(await version('issues')).toBe(i0); // strategy tables leave the issues scope alone

    // rolled back: no bump
    const r = t.db.createQueryRunner();
    await r.connect();
    try {
      await r.startTransaction();
      await r.query('INSERT INTO goals (org_id, title) VALUES ($1, $2)', [org.id, uniq('g')]);
      await r.query('DELETE FROM kpis WHERE org_id = $1 AND id = $2', [org.id, k]);
      await r.rollbackTransaction();
    } finally {
      if (r.isTransactionActive) await r.rollbackTransaction();
      await r.release();
    }
    expect(await version('strategy')).toBe(v0 + 1);

    // an UPDATE that changes nothing: no bump
    await q(`UPDATE goals SET status = status WHERE org_id = $1 AND id = $2`, [g]);
    expect(await version('strategy')).toBe(v0 + 1);

    // one statement outside an explicit transaction: one bump; a delete too
    await q('DELETE FROM kpi_snapshots WHERE org_id = $1 AND kpi_id = $2', [k]);
    expect(await version('strategy')).toBe(v0 + 2);

    // TRUNCATE (no row triggers, no organization) bumps every organization, once per transaction
    // (seen inside the transaction, which is then rolled back so no data is lost)
    const tr = t.db.createQueryRunner();
    await tr.connect();
    try {
      await tr.startTransaction();
      await tr.query('TRUNCATE initiative_target_milestones, initiative_kpi_impacts');
      const inside = await tr.query('SELECT sum(version) AS version FROM data_versions WHERE org_id = $1 AND scope = $2', [org.id, 'strategy']);
      expect(Number(inside[0].version)).toBe(v0 + 3);
      await tr.rollbackTransaction();
    } finally {
      if (tr.isTransactionActive) await tr.rollbackTransaction();
      await tr.release();
    }
    expect(await version('strategy')).toBe(v0 + 2);
  });

  it('every table the audit reads carries the version triggers', async () => {
    const strategy = [
      'goals',
      'kpis',
      'kpi_snapshots',
      'initiatives',
      'initiative_kpi_impacts',
      'initiative_projects',
      'milestones',
      'initiative_targets',
      'initiative_target_issues',
      'initiative_target_milestones',
    ];
    const issues = ['issues', 'projects', 'issue_dependencies', 'board_columns', 'initiative_issues', 'initiative_milestones'];
    const rows: Array<{ tbl: string; tgname: string }> = await t.db.query(
      `SELECT c.relname AS tbl, tg.tgname FROM pg_trigger tg JOIN pg_class c ON c.oid = tg.tgrelid
        WHERE tg.tgname LIKE 'data_versions_%' AND tg.tgdeferrable AND tg.tginitdeferred`,
    );
    const on = (tbl: string) =>
      rows
        .filter((r) => r.tbl === tbl)
        .map((r) => r.tgname)
        .sort();
    // (initiative_milestones carries both: the heartbeat's strategy version counts its links too)
    for (const tbl of strategy) expect([tbl, on(tbl)]).toEqual([tbl, expect.arrayContaining(['data_versions_strategy_ins', 'data_versions_strategy_upd'])]);
    for (const tbl of issues) expect([tbl, on(tbl)]).toEqual([tbl, expect.arrayContaining(['data_versions_issues_ins', 'data_versions_issues_upd'])]);
  });
});

describe('strategy audit cache off (READ_CACHE=off)', () => {
  let t: TestApp;
  afterAll(() => t?.close());

  it('computes every request', async () => {
    t = await startTestApp({ READ_CACHE: 'off' });
    const handler = t.app.get(StrategyAuditHandler, { strict: false });
    const compute = jest.spyOn(handler, 'compute');
    const org = await newOrg(t);
    const first = (await org.owner.http.get(`/api/orgs/${org.id}/strategy/audit`).expect(200)).body;
    const second = (await org.owner.http.get(`/api/orgs/${org.id}/strategy/audit`).expect(200)).body;
    expect(compute).toHaveBeenCalledTimes(2);
    expect(second.findings).toEqual(first.findings);
    compute.mockRestore();
  });
});
