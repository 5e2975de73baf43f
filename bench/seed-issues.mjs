// Bulk seed of the work-tracking scenarios (run.mjs): BENCH_ISSUES issues (default 100,000) spread
// over the organization's projects, written with INSERT … SELECT generate_series (not through HTTP),
// per-project numbers 1..n and projects.issue_seq set to match, statuses / priorities / archived
// issues / due dates / assignees (primary and issue_assignees links) varied by a hash of the row
// number; then a dependency DAG over BENCH_GRAPH_ISSUES (default 5,000) issues of one project, and
// VACUUM ANALYZE. Returns what the scenarios need (keys, root issue, expected totals).
//
// The DAG: issue n blocks issues 3n-1, 3n, 3n+1 (fan-out 3) and n+7 (reconverging cross edges);
// every edge goes from a lower to a higher number, so there is no cycle. The chain root is issue 2:
// depth 5 downstream reaches several hundred issues (the chain page shows the first 50).
//
// Comments (issue_search): one comment on about half of the issues, "Reviewed <w1> and <w2> for
// issue <n>." (HTML), each word one of 1,000 made-up six-letter words (three syllables), so one word
// is in about 100 comments: the search scenario looks one up (searchQuery, searchTotal).
import pg from 'pg';

/** Syllables of the comments' made-up words: word k (0..999) is SYLLABLES[k / 100] + SYLLABLES[k / 10 % 10] + SYLLABLES[k % 10]. */
const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'su', 'ta', 'ri', 'po', 've', 'zu'];
const wordOf = (k) => SYLLABLES[Math.floor(k / 100)] + SYLLABLES[Math.floor(k / 10) % 10] + SYLLABLES[k % 10];

/** Deterministic pseudo-random bucket of row g for attribute `salt`: 0..m-1. */
const h = (salt, m) => `(abs(hashtext(g::text || '${salt}')) % ${m})`;

export async function seedIssues(databaseUrl, { orgId, projectIds, issues, graphIssues }) {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const members = (
      await c.query(`SELECT id FROM members WHERE org_id = $1 AND removed_at IS NULL AND role <> 'guest' ORDER BY created_at, id`, [orgId])
    ).rows.map((r) => r.id);
    const nProjects = projectIds.length;
    await c.query('BEGIN');
    // Row g (1..issues): project (g-1) % P, number (g-1) / P + 1, created one minute apart (newest last).
    await c.query(
      `INSERT INTO issues (org_id, project_id, number, title, description, status, priority, created_by_member_id,
                           archived_at, created_at, updated_at, assignee_id, start_date, due_date, completed_at)
       SELECT $1, ($2::uuid[])[((g - 1) % $4) + 1], ((g - 1) / $4) + 1,
              'Bench issue ' || g || ' ' || md5(g::text),
              CASE WHEN ${h('d', 3)} = 0 THEN NULL ELSE 'Description of issue ' || g || E'.\\n\\n' || repeat('Some words about the work. ', 1 + ${h('dl', 8)}) END,
              (ARRAY['backlog', 'todo', 'in_progress', 'done', 'cancelled', 'todo', 'in_progress', 'backlog'])[${h('s', 8)} + 1],
              ${h('p', 4)},
              ($3::uuid[])[${h('c', members.length)} + 1],
              CASE WHEN ${h('a', 20)} = 0 THEN now() - interval '1 day' END,
              now() - make_interval(mins => $5 - g),
              now() - make_interval(mins => ($5 - g) / 2),
              CASE WHEN ${h('as', 10)} < 6 THEN ($3::uuid[])[${h('am', members.length)} + 1] END,
              NULL,
              CASE WHEN ${h('du', 10)} < 4 THEN (current_date + (${h('dd', 120)} - 30)) END,
              NULL
         FROM generate_series(1, $5::int) g`,
      [orgId, projectIds, members, nProjects, issues],
    );
    await c.query(`UPDATE issues SET completed_at = updated_at WHERE org_id = $1 AND status = 'done'`, [orgId]);
    // Multi-assignee links for ~30%: the primary assignee (when any) plus one or two more.
    await c.query(
      `INSERT INTO issue_assignees (org_id, issue_id, member_id, position)
       SELECT DISTINCT ON (i.id, m.member_id) i.org_id, i.id, m.member_id, m.pos
         FROM issues i
         CROSS JOIN LATERAL (VALUES
           (i.assignee_id, 0),
           (($2::uuid[])[(abs(hashtext(i.id::text || 'x')) % $3) + 1], 1),
           (CASE WHEN abs(hashtext(i.id::text || 'z')) % 2 = 0 THEN ($2::uuid[])[(abs(hashtext(i.id::text || 'y')) % $3) + 1] END, 2)
         ) AS m(member_id, pos)
        WHERE i.org_id = $1 AND abs(hashtext(i.id::text)) % 10 < 3 AND m.member_id IS NOT NULL
        ORDER BY i.id, m.member_id, m.pos`,
      [orgId, members, members.length],
    );
    await c.query(
      `UPDATE projects p SET issue_seq = s.n FROM (SELECT project_id, max(number) AS n FROM issues WHERE org_id = $1 GROUP BY project_id) s
        WHERE p.org_id = $1 AND p.id = s.project_id`,
      [orgId],
    );

    // The dependency DAG in the first project: issue n blocks 3n-1, 3n, 3n+1 and n+7.
    const graphProject = projectIds[0];
    const done =
      (await c.query(`SELECT id FROM board_columns WHERE org_id = $1 AND project_id = $2 AND key = 'done'`, [orgId, graphProject])).rows[0]?.id ?? null;
    await c.query(
      `INSERT INTO issue_dependencies (org_id, blocking_issue_id, blocked_issue_id, release_column_id, created_by_member_id)
       SELECT $1, a.id, b.id, $4, a.created_by_member_id
         FROM issues a
         CROSS JOIN LATERAL unnest(ARRAY[3 * a.number - 1, 3 * a.number, 3 * a.number + 1, a.number + 7]) AS t(n)
         JOIN issues b ON b.org_id = a.org_id AND b.project_id = a.project_id AND b.number = t.n
        WHERE a.org_id = $1 AND a.project_id = $2 AND a.number <= $3 AND t.n <= $3 AND t.n > a.number
       ON CONFLICT DO NOTHING`,
      [orgId, graphProject, graphIssues, done],
    );
    // Comments for the search scenario (made-up words in sanitized-looking HTML).
    const word = (salt) =>
      `(s[abs(hashtext(i.id::text || '${salt}')) % 1000 / 100 + 1] || s[abs(hashtext(i.id::text || '${salt}')) % 100 / 10 + 1] || s[abs(hashtext(i.id::text || '${salt}')) % 10 + 1])`;
    await c.query(
      `INSERT INTO comments (org_id, issue_id, author_type, author_member_id, body, created_at, updated_at)
       SELECT i.org_id, i.id, 'member', i.created_by_member_id, '<p>Reviewed ' || ${word('w1')} || ' and ' || ${word('w2')} || ' for issue ' || i.number || '.</p>',
              i.created_at, i.created_at
         FROM issues i CROSS JOIN (SELECT $2::text[] AS s) v
        WHERE i.org_id = $1 AND abs(hashtext(i.id::text || 'cm')) % 2 = 0`,
      [orgId, SYLLABLES],
    );
    await c.query('COMMIT');
    await c.query('VACUUM ANALYZE');

    const projects = (await c.query('SELECT id, key, issue_seq FROM projects WHERE org_id = $1 AND id = ANY($2::uuid[])', [orgId, projectIds])).rows;
    const keyOf = new Map(projects.map((p) => [p.id, p.key]));
    const root = (await c.query('SELECT id FROM issues WHERE org_id = $1 AND project_id = $2 AND number = 2', [orgId, graphProject])).rows[0].id;
    const detailProject = projectIds[Math.min(5, nProjects - 1)];
    const detailNumber = Math.max(1, Math.floor(Number(projects.find((p) => p.id === detailProject).issue_seq) / 2));
    const count = async (where, args) =>
      (await c.query(`SELECT count(*)::int AS n FROM issues i WHERE i.org_id = $1 AND i.archived_at IS NULL AND ${where}`, [orgId, ...args])).rows[0].n;
    const filterProject = projectIds[Math.min(3, nProjects - 1)];
    const edges = (await c.query('SELECT count(*)::int AS n FROM issue_dependencies WHERE org_id = $1', [orgId])).rows[0].n;
    return {
      seededIssues: issues,
      dependencyEdges: edges,
      chainRootId: root,
      detailRef: `${keyOf.get(detailProject)}-${detailNumber}`,
      detailProjectId: detailProject,
      detailNumber,
      filterProjectId: filterProject,
      liveTotal: await count('true', []),
      todoP1Total: await count(`i.status = 'todo' AND i.priority = 1`, []),
      projectLiveTotal: await count('i.project_id = $2', [filterProject]),
      comments: (await c.query('SELECT count(*)::int AS n FROM comments WHERE org_id = $1', [orgId])).rows[0].n,
      searchQuery: wordOf(123),
      searchTotal: await count(
        `EXISTS (SELECT 1 FROM comments c WHERE c.org_id = i.org_id AND c.issue_id = i.id AND c.deleted_at IS NULL AND c.body ~ ('\\m' || $2 || '\\M'))`,
        [wordOf(123)],
      ),
    };
  } catch (e) {
    await c.query('ROLLBACK').catch(() => {});
    throw e;
  } finally {
    await c.end();
  }
}
