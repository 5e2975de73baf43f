// Bulk seed of the strategy scenarios (run.mjs), after seed-issues.mjs, in SQL (not through HTTP):
// BENCH_GOALS goals (200), BENCH_KPIS KPIs (1,000; every fifth a formula KPI, one per goal) with
// BENCH_SNAPSHOTS snapshots each (30, a week apart), BENCH_INITIATIVES initiatives (500, spread over
// the goals and projects, mixed statuses, each with a KPI impact) and BENCH_LINKED_ISSUES linked
// issues (20,000 of the seeded issues, each linked to one initiative; 5% through a milestone), plus
// a milestone per project. Then VACUUM ANALYZE and the formula KPIs calculated once.
//
// `timeFormulaRecalculation` measures the formula-KPI recalculation after an issue status change:
// it changes the status of a linked issue and times the recalculation itself (the advisory lock +
// the one UPDATE statement of FormulaKpiRecalculator, in its own transaction), N times.
import { createRequire } from 'node:module';
import pg from 'pg';

const require = createRequire(import.meta.url);

const h = (salt, m) => `(abs(hashtext(g::text || '${salt}')) % ${m})`;

export async function seedStrategy(databaseUrl, { orgId, projectIds, goals = 200, kpis = 1000, snapshots = 30, initiatives = 500, linkedIssues = 20000 }) {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const P = projectIds.length;
    await c.query('BEGIN');
    // goals: one in ten paused, one in twenty org-level without target date; the rest project-bound
    await c.query(
      `INSERT INTO goals (org_id, id, title, status, target_date, project_id, created_at)
       SELECT $1, md5('goal' || g)::uuid, 'Bench goal ' || g, CASE WHEN g % 10 = 0 THEN 'paused' ELSE 'active' END,
              CASE WHEN g % 20 = 0 THEN NULL ELSE current_date + (30 + ${h('gd', 300)}) END,
              CASE WHEN g % 3 = 0 THEN NULL ELSE ($2::uuid[])[(g % $3) + 1] END, now() - interval '240 days'
         FROM generate_series(1, $4) g`,
      [orgId, projectIds, P, goals],
    );
    // KPIs: g % 5 = 0 → formula KPI of goal g/5 (one per goal); others manual with varied targets
    await c.query(
      `INSERT INTO kpis (org_id, id, goal_id, name, unit, baseline_value, target_value, target_direction, source_type, source_config, stale_after_hours, created_at)
       SELECT $1, md5('kpi' || g)::uuid,
              CASE WHEN g % 5 = 0 THEN md5('goal' || ((g / 5 - 1) % $2 + 1))::uuid WHEN g % 17 = 0 THEN NULL ELSE md5('goal' || ((g - 1) % $2 + 1))::uuid END,
              'bench_kpi_' || g, 'count',
              CASE WHEN g % 5 = 0 THEN NULL WHEN g % 2 = 0 THEN 0 END,
              CASE WHEN g % 5 = 0 THEN NULL WHEN g % 23 = 0 THEN NULL ELSE 100 + ${h('kt', 900)} END,
              (ARRAY['increase', 'increase', 'decrease', 'maintain'])[${h('kd', 4)} + 1],
              CASE WHEN g % 5 = 0 THEN 'formula' ELSE 'manual' END,
              CASE WHEN g % 5 = 0 THEN '{"formula":"goal_linked_issue_completion","done_statuses":["done"]}'::jsonb END,
              CASE WHEN g % 3 = 0 THEN 168 END, now() - interval '240 days'
         FROM generate_series(1, $3) g`,
      [orgId, goals, kpis],
    );
    await c.query(
      `INSERT INTO kpi_snapshots (org_id, kpi_id, value, source, created_at)
       SELECT $1, k.id, 10 + s * (1 + abs(hashtext(k.id::text)) % 20) + abs(hashtext(k.id::text || s)) % 7, 'manual', now() - make_interval(days => 7 * ($2 - s) + abs(hashtext(k.id::text)) % 5)
         FROM kpis k CROSS JOIN generate_series(1, $2) s
        WHERE k.org_id = $1 AND k.source_type = 'manual'`,
      [orgId, snapshots],
    );
    await c.query(
      `UPDATE kpis k SET current_value = l.value, last_recorded_at = l.created_at
         FROM (SELECT DISTINCT ON (kpi_id) kpi_id, value, created_at FROM kpi_snapshots WHERE org_id = $1 ORDER BY kpi_id, created_at DESC) l
        WHERE k.org_id = $1 AND k.id = l.kpi_id`,
      [orgId],
    );
    // initiatives over the goals (a few orphaned), statuses mixed, each linked to its project
    await c.query(
      `INSERT INTO initiatives (org_id, id, title, name, goal_id, status, project_id, start_date, target_date, created_at)
       SELECT $1, md5('ini' || g)::uuid, 'Bench initiative ' || g, 'Bench initiative ' || g,
              CASE WHEN g % 50 = 0 THEN NULL ELSE md5('goal' || ((g - 1) % $2 + 1))::uuid END,
              (ARRAY['active', 'active', 'active', 'proposed', 'paused', 'completed', 'active', 'cancelled'])[${h('is', 8)} + 1],
              ($3::uuid[])[(g % $4) + 1], current_date - 60, current_date + (${h('it', 200)} - 20), now() - interval '200 days'
         FROM generate_series(1, $5) g`,
      [orgId, goals, projectIds, P, initiatives],
    );
    await c.query(`INSERT INTO initiative_projects (org_id, initiative_id, project_id) SELECT org_id, id, project_id FROM initiatives WHERE org_id = $1`, [
      orgId,
    ]);
    await c.query(
      `INSERT INTO initiative_kpi_impacts (org_id, initiative_id, kpi_id, expected_impact)
       SELECT $1, md5('ini' || g)::uuid, md5('kpi' || ((g * 7) % $3 + 1))::uuid, '+' || g FROM generate_series(1, $2) g WHERE g % 9 <> 0`,
      [orgId, initiatives, kpis],
    );
    // one milestone per project (half of them overdue)
    await c.query(
      `INSERT INTO milestones (org_id, id, project_id, name, target_date, status)
       SELECT $1, md5('ms' || p)::uuid, ($2::uuid[])[p], 'Bench milestone ' || p, current_date + CASE WHEN p % 2 = 0 THEN -10 ELSE 30 END, 'active'
         FROM generate_series(1, $3) p`,
      [orgId, projectIds, P],
    );
    // linked issues: the first N issues (by created_at) go to initiative (row % initiatives) when in its project;
    // to keep it simple: rank issues per project and assign the k-th issue of project p to the k-th initiative of p
    await c.query(
      `WITH iss AS (SELECT id, project_id, row_number() OVER (PARTITION BY project_id ORDER BY created_at, id) AS rn FROM issues WHERE org_id = $1 AND project_id IS NOT NULL),
            ini AS (SELECT id, project_id, row_number() OVER (PARTITION BY project_id ORDER BY id) - 1 AS k, count(*) OVER (PARTITION BY project_id) AS n FROM initiatives WHERE org_id = $1),
            pick AS (SELECT iss.id AS issue_id, ini.id AS initiative_id, row_number() OVER (ORDER BY iss.rn, iss.id) AS g
                       FROM iss JOIN ini ON ini.project_id = iss.project_id AND ini.k = iss.rn % ini.n)
       INSERT INTO initiative_issues (org_id, initiative_id, issue_id)
       SELECT $1, initiative_id, issue_id FROM pick WHERE g <= $2 AND g % 20 <> 0`,
      [orgId, linkedIssues],
    );
    // 5%: through the project milestone instead (the milestone is linked to every initiative of its project)
    await c.query(
      `WITH iss AS (SELECT id, project_id, row_number() OVER (ORDER BY created_at, id) AS g FROM issues WHERE org_id = $1 AND project_id IS NOT NULL)
       UPDATE issues i SET milestone_id = md5('ms' || (array_position($3::uuid[], i.project_id)))::uuid
         FROM iss WHERE i.org_id = $1 AND i.id = iss.id AND iss.g <= $2 AND iss.g % 20 = 0`,
      [orgId, linkedIssues, projectIds],
    );
    await c.query(
      `INSERT INTO initiative_milestones (org_id, initiative_id, milestone_id)
       SELECT $1, n.id, m.id FROM initiatives n JOIN milestones m ON m.org_id = n.org_id AND m.project_id = n.project_id WHERE n.org_id = $1`,
      [orgId],
    );
    await c.query('COMMIT');
    for (const t of [
      'goals',
      'kpis',
      'kpi_snapshots',
      'initiatives',
      'initiative_projects',
      'initiative_kpi_impacts',
      'initiative_issues',
      'initiative_milestones',
      'milestones',
      'issues',
    ]) {
      await c.query(`VACUUM ANALYZE ${t}`);
    }
    const recalc = formulaRecalculator(c);
    await c.query('BEGIN');
    await recalc.forGoalsIn(
      managerOf(c),
      orgId,
      (await c.query(`SELECT id FROM goals WHERE org_id = $1`, [orgId])).rows.map((r) => r.id),
    );
    await c.query('COMMIT');
    const counts = (
      await c.query(
        `SELECT (SELECT count(*)::int FROM goals WHERE org_id = $1) AS goals, (SELECT count(*)::int FROM kpis WHERE org_id = $1) AS kpis,
              (SELECT count(*)::int FROM kpi_snapshots WHERE org_id = $1) AS snapshots, (SELECT count(*)::int FROM initiatives WHERE org_id = $1) AS initiatives,
              (SELECT count(DISTINCT issue_id)::int FROM (SELECT issue_id FROM initiative_issues WHERE org_id = $1
                 UNION SELECT i.id FROM initiative_milestones im JOIN issues i ON i.org_id = im.org_id AND i.milestone_id = im.milestone_id WHERE im.org_id = $1) x) AS linked`,
        [orgId],
      )
    ).rows[0];
    return { strategy: counts };
  } finally {
    await c.end();
  }
}

/**
 * The service's own recalculator and KPI repository (dist), their statements sent on one pg client
 * (the repository's `Sql` stand-in runs every statement on it, so the timed transaction is the client's).
 */
function formulaRecalculator(client) {
  const { FormulaKpiRecalculator } = require('../dist/src/modules/strategy/formula/formula-kpi-recalculator.js');
  const { KpisRepository } = require('../dist/src/modules/strategy/kpis.repository.js');
  const rows = async (text, values = []) => (await client.query(text, values)).rows;
  const sql = {
    rows,
    planned: rows,
    row: async (text, values) => (await rows(text, values))[0],
    run: async (text, values = []) => (await client.query(text, values)).rowCount ?? 0,
  };
  return new FormulaKpiRecalculator(null, new KpisRepository(sql));
}
const managerOf = (client) => ({ query: async (sql, params) => (await client.query(sql, params)).rows });

/**
 * Flips the status of a linked issue (todo <-> done) and times the recalculation of the affected
 * formula KPIs (lock + the one UPDATE, in its own transaction) `runs` times. Returns p50/p99/max ms.
 */
export async function timeFormulaRecalculation(databaseUrl, { orgId, runs = 200 }) {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const recalc = formulaRecalculator(c);
    const m = managerOf(c);
    const issue = (
      await c.query(
        `SELECT ii.issue_id FROM initiative_issues ii JOIN initiatives n ON n.org_id = ii.org_id AND n.id = ii.initiative_id
        JOIN kpis k ON k.org_id = n.org_id AND k.goal_id = n.goal_id AND k.source_type = 'formula'
       WHERE ii.org_id = $1 ORDER BY ii.issue_id LIMIT 1`,
        [orgId],
      )
    ).rows[0].issue_id;
    // the scenarios' expected totals were taken at seed time: put the status back afterwards
    const original = (await c.query('SELECT status FROM issues WHERE org_id = $1 AND id = $2', [orgId, issue])).rows[0].status;
    const times = [];
    let changed = 0;
    for (let i = 0; i < runs; i++) {
      await c.query(`UPDATE issues SET status = CASE WHEN status = 'done' THEN 'todo' ELSE 'done' END, updated_at = now() WHERE org_id = $1 AND id = $2`, [
        orgId,
        issue,
      ]);
      const t0 = process.hrtime.bigint();
      await c.query('BEGIN');
      const ids = await recalc.forIssuesIn(m, orgId, [issue]);
      await c.query('COMMIT');
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
      changed += ids.length;
    }
    await c.query('UPDATE issues SET status = $3 WHERE org_id = $1 AND id = $2', [orgId, issue, original]);
    await c.query('BEGIN');
    await recalc.forIssuesIn(m, orgId, [issue]);
    await c.query('COMMIT');
    times.sort((a, b) => a - b);
    const at = (q) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))] * 100) / 100;
    return { runs, p50: at(0.5), p99: at(0.99), max: at(1), kpisRecalculatedPerRun: changed / runs };
  } finally {
    await c.end();
  }
}
