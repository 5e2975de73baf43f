// Benchmark scenarios: one entry per measured request. run.mjs measures each one against the
// service and against the minimal baseline (baseline.mjs), which answers the same request with a
// plain node:http handler doing the same database work (the same named prepared statements as the service). To add a scenario, append an entry:
//
//   name      short id (also the baseline server's path: /<name>)
//   title     what is measured, for the table
//   path      (ctx) => the service path; ctx is what run.mjs seeded: { orgId, projectIds, agentKey,
//             agentMemberId, ownerMemberId, memberCount }
//   headers   (ctx) => request headers (the same for the service and the baseline)
//   verify    (status, body, ctx) => error message or null; checked once against both servers
//             before measuring, so a scenario never measures 401s or 404s
//   baseline  async ({ pool, principal, url }) => body: the same work with raw SQL; principal is the
//             agent the bearer key resolved to (authenticateKey below), null answers 401
//   baselineQuery (ctx) => query parameters of the baseline's URL (optional)
//   sameBody  true: run.mjs checks that the baseline answers exactly the service's body
//   ratio     the scenario's own service/baseline req/s target (null: none; default BENCH_TARGET_RATIO)
//   p99       the service's p99 latency target in ms (optional)
//   connections  the scenario's own concurrency (default BENCH_CONNECTIONS)
//   scaleVsOne   the service's req/s at `connections` must be at least this many times its req/s
//                at 1 connection (a 1-connection pass of BENCH_DURATION runs for it)
// Writes (write-scenarios.mjs) also have: `write: true`, `method`, `body(ctx, k)` and a path that
// may depend on k (the k-th request of the run), `baselineQuery(ctx, k)`, `setup(ctx, client)`
// (fixtures, once) and `reset(ctx, client, since)` (after every pass: remove what it wrote). Their
// baseline gets the parsed request body as `body`.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { writeScenarios } from './write-scenarios.mjs';

const require = createRequire(import.meta.url);

/** The service's credential look-up (AuthRepository.agentByKeyHash): the agent, its avatar and its own project grants. */
export const API_KEY_LOOKUP = `SELECT k.id, k.org_id, k.member_id, m.role, m.display_name, m.agent_scope, m.owner_member_id, m.avatar_url,
       CASE WHEN m.role IN ('owner', 'admin') OR m.agent_scope = 'personal' THEN NULL
       ELSE coalesce((SELECT json_agg(g) FROM (SELECT project_id, access_level FROM project_members WHERE org_id = m.org_id AND member_id = m.id
         UNION ALL
         SELECT pt.project_id, 'edit' FROM project_teams pt
           JOIN team_members tm ON tm.org_id = pt.org_id AND tm.team_id = pt.team_id
          WHERE pt.org_id = m.org_id AND tm.member_id = m.id AND m.role <> 'guest') g), '[]'::json) END AS grants
  FROM api_keys k JOIN members m ON m.org_id = k.org_id AND m.id = k.member_id
 WHERE k.key_hash = $1 AND k.revoked_at IS NULL AND m.removed_at IS NULL AND m.type = 'agent'`;

/** The baseline's authentication: the same indexed lookup on sha256(key) as the service. */
export async function authenticateKey(pool, authorization) {
  const m = /^Bearer (sk_service_[A-Za-z0-9_-]{20,200})$/.exec(authorization ?? '');
  if (!m) return null;
  const { rows } = await pool.query({ name: 'b-key', text: API_KEY_LOOKUP, values: [createHash('sha256').update(m[1], 'utf8').digest()] });
  return rows[0] ?? null;
}

const bearerHeaders = (ctx) => ({ authorization: `Bearer ${ctx.agentKey}` });

export const scenarios = [
  {
    name: 'auth-me',
    title: 'GET /api/auth/me (agent bearer key)',
    path: () => '/api/auth/me',
    headers: bearerHeaders,
    verify: (status, body, ctx) => {
      if (status !== 200) return `expected 200, got ${status}`;
      if (body?.auth?.type !== 'agent') return 'auth.type is not agent';
      if (body.auth.orgId !== ctx.orgId) return 'auth.orgId is not the seeded organization';
      return null;
    },
    async baseline({ pool, principal }) {
      // Only the role's org-wide level (the service also reads explicit project/team grants: one
      // more query that this baseline, as specified, leaves out).
      const { rows } = await pool.query({
        name: 'b-projects',
        text: 'SELECT id FROM projects WHERE org_id = $1 ORDER BY created_at, id',
        values: [principal.org_id],
      });
      const level = principal.role === 'owner' || principal.role === 'admin' ? 'admin' : 'view';
      const projectAccess = principal.role === 'guest' ? [] : rows.map((r) => ({ projectId: r.id, accessLevel: level }));
      return {
        auth: {
          type: 'agent',
          userId: null,
          orgId: principal.org_id,
          role: principal.role,
          memberId: principal.member_id,
          displayName: principal.display_name,
          agentId: principal.member_id,
          memberType: 'agent',
          agentScope: principal.agent_scope,
          scopes: [],
          projectAccess,
        },
      };
    },
  },
  {
    name: 'members-page',
    title: 'GET /api/orgs/:id/members?shape=envelope&limit=25 (agent bearer key)',
    path: (ctx) => `/api/orgs/${ctx.orgId}/members?shape=envelope&limit=25`,
    headers: bearerHeaders,
    verify: (status, body, ctx) => {
      if (status !== 200) return `expected 200, got ${status}`;
      if (!Array.isArray(body?.items)) return 'no items array (envelope shape expected)';
      if (body.items.length !== 25) return `expected 25 items, got ${body.items.length}`;
      if (typeof body.total !== 'number' || body.total < ctx.memberCount) return `total ${body.total} is below the ${ctx.memberCount} seeded members`;
      return null;
    },
    async baseline({ pool, principal }) {
      const where = `org_id = $1 AND removed_at IS NULL AND role <> 'guest'`;
      const [page, count] = await Promise.all([
        pool.query({
          name: 'b-dir',
          text: `SELECT id, display_name, type, role, avatar_url FROM members WHERE ${where} ORDER BY lower(display_name), id LIMIT 25 OFFSET 0`,
          values: [principal.org_id],
        }),
        pool.query({ name: 'b-dir-count', text: `SELECT count(*)::int AS n FROM members WHERE ${where}`, values: [principal.org_id] }),
      ]);
      const items = page.rows.map((r) => ({ id: r.id, display_name: r.display_name, type: r.type, role: r.role, avatar_url: r.avatar_url }));
      const total = count.rows[0].n;
      const nextOffset = items.length < total ? items.length : null;
      return {
        resource: 'members',
        items,
        total,
        limit: 25,
        offset: 0,
        nextOffset,
        truncated: nextOffset !== null,
        hint: nextOffset !== null ? `Showing ${items.length} of ${total}; request offset=${nextOffset} for more.` : null,
      };
    },
  },
];

// ---------------------------------------------------------------------------------------------
// Work tracking (issue 3, "Speed"): the bulk-seeded organization of seed-issues.mjs (100,000
// issues over 20 projects, a 5,000-issue dependency DAG). The caller is an organization agent with
// role member: `view` on every project, so the visibility filter is the organization's issues
// (every project, and projectless issues) — the baselines apply the same filter. Each baseline
// answers the same page with the same columns, the same exact count and the same JSON shape.

const LIST_P99_MS = 50;
const CHAIN_P99_MS = 100;

/** The full list item's columns (the service's FULL_COLUMNS), on a page sub-select `i` joined to projects. */
const FULL_COLUMNS = `
  i.id, i.number, i.title, i.description, i.status, i.priority, i.project_id,
  p.key AS project_key, p.slug AS project_slug,
  i.assignee_id, i.team_id, i.milestone_id, i.parent_id,
  to_char(i.start_date, 'YYYY-MM-DD') AS start_date, to_char(i.due_date, 'YYYY-MM-DD') AS due_date,
  i.recurrence_type, i.recurrence_interval, i.recurrence_days::text[] AS recurrence_days, i.recurrence_mode,
  i.recurrence_time, i.recurrence_timezone,
  i.created_by_member_id, i.archived_at, i.completed_at, i.created_at, i.updated_at,
  ARRAY(SELECT a.member_id::text FROM issue_assignees a WHERE a.org_id = i.org_id AND a.issue_id = i.id
        ORDER BY a.position, a.created_at, a.member_id) AS assignee_ids,
  ARRAY(SELECT l.label_id::text FROM issue_labels l WHERE l.org_id = i.org_id AND l.issue_id = i.id
        ORDER BY l.created_at, l.label_id) AS label_ids`;
const COMPACT_COLUMNS = `
  i.id, i.number, i.title, i.status, i.priority, i.project_id, i.assignee_id,
  to_char(i.due_date, 'YYYY-MM-DD') AS due_date, i.milestone_id, i.updated_at,
  ARRAY(SELECT a.member_id::text FROM issue_assignees a WHERE a.org_id = i.org_id AND a.issue_id = i.id
        ORDER BY a.position, a.created_at, a.member_id) AS assignee_ids`;
const ORDER = 'i.created_at DESC, i.id DESC';

const iso = (v) => (v ? new Date(v).toISOString() : null);
const assigneeIds = (r) => (r.assignee_id && !r.assignee_ids.includes(r.assignee_id) ? [r.assignee_id, ...r.assignee_ids] : r.assignee_ids);
const recurrence = (r) => ({
  recurrence_type: r.recurrence_type ?? null,
  recurrence_interval: r.recurrence_interval ?? null,
  recurrence_days: r.recurrence_days ?? null,
  recurrence_materialization_mode: r.recurrence_mode ?? null,
  recurrence_time: r.recurrence_time ?? null,
  recurrence_timezone: r.recurrence_timezone ?? null,
  recurrence_schedule: r.recurrence_type ? { type: r.recurrence_type, interval: r.recurrence_interval ?? 1, days: r.recurrence_days ?? [] } : null,
});
const fullItem = (r) => ({
  id: r.id,
  number: r.number,
  identifier: r.project_id && r.project_key ? `${r.project_key}-${r.number}` : null,
  projectSlug: r.project_id ? (r.project_slug ?? null) : null,
  title: r.title,
  description: r.description ?? null,
  status: r.status,
  priority: Number(r.priority),
  project_id: r.project_id ?? null,
  assignee_id: r.assignee_id ?? null,
  assignee_ids: assigneeIds(r),
  team_id: r.team_id ?? null,
  milestone_id: r.milestone_id ?? null,
  parent_id: r.parent_id ?? null,
  start_date: r.start_date ?? null,
  due_date: r.due_date ?? null,
  ...recurrence(r),
  label_ids: r.label_ids,
  created_by: r.created_by_member_id ?? null,
  archived: !!r.archived_at,
  archived_at: iso(r.archived_at),
  completed_at: iso(r.completed_at),
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});
const compactItem = (r) => ({
  id: r.id,
  number: r.number,
  title: r.title,
  status: r.status,
  priority: Number(r.priority),
  project_id: r.project_id ?? null,
  assignee_id: r.assignee_id ?? null,
  assignee_ids: assigneeIds(r),
  due_date: r.due_date ?? null,
  milestone_id: r.milestone_id ?? null,
  updated_at: iso(r.updated_at),
});

/**
 * The chain view in one statement ($1 organization, $2 root, $3 depth, $4 offset, $5 limit), for a
 * caller who reads everything: both walks, nodes ranked by (distance, id), blockers (one index
 * probe per node; read from the nodes when walked, else by primary key), "satisfied" over the
 * blockers' board columns,
 * readiness, the traversed edges; whole-graph counts plus the page's nodes and edges as JSON.
 */
export const CHAIN_BASELINE_SQL = `
  WITH RECURSIVE up(issue_id, depth) AS (
    SELECT $2::uuid, 0
    UNION
    SELECT d.blocking_issue_id, u.depth + 1 FROM up u JOIN issue_dependencies d ON d.org_id = $1 AND d.blocked_issue_id = u.issue_id WHERE u.depth < $3
  ), down(issue_id, depth) AS (
    SELECT $2::uuid, 0
    UNION
    SELECT d.blocked_issue_id, w.depth + 1 FROM down w JOIN issue_dependencies d ON d.org_id = $1 AND d.blocking_issue_id = w.issue_id WHERE w.depth < $3
  ), walked AS (
    SELECT issue_id, min(ud) AS ud, min(dd) AS dd
      FROM (SELECT issue_id, depth AS ud, NULL::int AS dd FROM up UNION ALL SELECT issue_id, NULL::int, depth FROM down) x GROUP BY issue_id
  ), nodes AS MATERIALIZED (
    SELECT w.issue_id AS id, w.ud, w.dd, i.project_id, i.status, i.archived_at,
           (row_number() OVER (ORDER BY least(w.ud, w.dd), w.issue_id) - 1)::int AS idx
      FROM walked w JOIN issues i ON i.org_id = $1 AND i.id = w.issue_id
  ), links AS MATERIALIZED (
    SELECT d.id, d.blocking_issue_id, d.blocked_issue_id, d.release_column_id
      FROM nodes n CROSS JOIN LATERAL (SELECT d.id, d.blocking_issue_id, d.blocked_issue_id, d.release_column_id FROM issue_dependencies d
                                        WHERE d.org_id = $1 AND d.blocked_issue_id = n.id OFFSET 0) d
  ), dep AS MATERIALIZED (
    SELECT d.id, d.blocking_issue_id, d.blocked_issue_id, d.release_column_id,
           coalesce(bn.project_id, b.project_id) AS project_id, coalesce(bn.status, b.status) AS status,
           CASE WHEN bn.id IS NULL THEN b.archived_at ELSE bn.archived_at END AS archived_at
      FROM links d
      LEFT JOIN nodes bn ON bn.id = d.blocking_issue_id
      LEFT JOIN LATERAL (SELECT b.project_id, b.status, b.archived_at FROM issues b
                          WHERE bn.id IS NULL AND b.org_id = $1 AND b.id = d.blocking_issue_id OFFSET 0) b ON true
  ), cols AS MATERIALIZED (
    SELECT c.id, c.project_id, c.key, c.label, c.position FROM board_columns c
     WHERE c.org_id = $1 AND c.project_id IN (SELECT DISTINCT project_id FROM dep)
  ), deps AS MATERIALIZED (
    SELECT d.id, d.blocking_issue_id, d.blocked_issue_id, d.release_column_id, d.project_id AS blocker_project_id, rc.key AS rc_key, rc.label AS rc_label,
           (d.archived_at IS NOT NULL OR d.status IN ('done', 'cancelled')
             OR (d.release_column_id IS NOT NULL AND coalesce(sc.position >= rc.position, false))) AS satisfied,
           (d.archived_at IS NOT NULL OR d.status IN ('done', 'cancelled')) AS blocker_complete
      FROM dep d
      LEFT JOIN cols rc ON rc.id = d.release_column_id AND rc.project_id = d.project_id
      LEFT JOIN cols sc ON sc.project_id = d.project_id AND sc.key = d.status
  ), ranked AS MATERIALIZED (
    SELECT n.id, n.idx,
           CASE WHEN n.archived_at IS NOT NULL OR n.status IN ('done', 'cancelled') THEN 'complete' WHEN f.blocked THEN 'blocked' ELSE 'ready' END AS readiness
      FROM nodes n LEFT JOIN (SELECT blocked_issue_id, bool_or(NOT satisfied) AS blocked FROM deps GROUP BY blocked_issue_id) f ON f.blocked_issue_id = n.id
  ), edges AS MATERIALIZED (
    SELECT e.*, greatest(fn.idx, tn.idx) AS at
      FROM deps e JOIN nodes fn ON fn.id = e.blocking_issue_id JOIN nodes tn ON tn.id = e.blocked_issue_id
     WHERE (tn.ud < $3 AND fn.ud IS NOT NULL) OR (fn.dd < $3 AND tn.dd IS NOT NULL)
  )
  SELECT
    (SELECT json_build_object('nodes', count(*), 'ready', count(*) FILTER (WHERE readiness = 'ready'), 'blocked', count(*) FILTER (WHERE readiness = 'blocked'),
                              'complete', count(*) FILTER (WHERE readiness = 'complete')) FROM ranked) AS counts,
    (SELECT count(*)::int FROM edges) AS edge_count,
    (SELECT coalesce(json_agg(json_build_object('id', r.id, 'readiness', r.readiness, 'number', i.number, 'title', i.title, 'status', i.status,
                                                'project_id', i.project_id, 'project_key', p.key, 'project_slug', p.slug) ORDER BY r.idx), '[]'::json)
       FROM ranked r JOIN issues i ON i.org_id = $1 AND i.id = r.id LEFT JOIN projects p ON p.org_id = i.org_id AND p.id = i.project_id
      WHERE r.idx >= $4 AND r.idx < $4 + $5) AS nodes,
    (SELECT coalesce(json_agg(json_build_object('id', e.id, 'from', e.blocking_issue_id, 'to', e.blocked_issue_id, 'release_column_id', e.release_column_id,
                                                'rc_key', e.rc_key, 'rc_label', e.rc_label, 'satisfied', e.satisfied, 'blocker_complete', e.blocker_complete) ORDER BY e.id), '[]'::json)
       FROM edges e
      WHERE e.at >= $4 AND e.at < $4 + $5) AS edges`;

/**
 * One page of GET /issues (limit 25, offset 0, newest first, archived excluded) with its exact
 * count, run concurrently: `filters` are extra conditions on `i` with parameters from $2, and
 * `counted` the same conditions on the trigger-maintained `issue_counts` rows (per project,
 * status, priority and archived; migration 1764100000000), which the service sums for these lists.
 */
async function issuePage(pool, principal, { name, compact, filters = [], counted = [], values = [] }) {
  // An organization agent with role member reads every project (and projectless issues): no
  // project filter. Guests or personal agents would need their readable project ids here.
  if (principal.role === 'guest') throw new Error('the bench agent must not be a guest');
  const cond = ['i.org_id = $1', 'i.archived_at IS NULL', ...filters].join(' AND ');
  const n = values.length;
  const countSql = `SELECT coalesce(sum(c.n), 0)::int AS n FROM issue_counts c WHERE ${['c.org_id = $1', 'NOT c.archived', ...counted].join(' AND ')}`;
  // the total rides along with the page (an uncorrelated sub-select, evaluated once)
  const total = `(${countSql}) AS list_total`;
  const pageSql = compact
    ? `SELECT ${COMPACT_COLUMNS}, ${total} FROM issues i WHERE ${cond} ORDER BY ${ORDER} LIMIT $${n + 2} OFFSET $${n + 3}`
    : `SELECT ${FULL_COLUMNS}, ${total} FROM (SELECT i.* FROM issues i WHERE ${cond} ORDER BY ${ORDER} LIMIT $${n + 2} OFFSET $${n + 3}) i
         LEFT JOIN projects p ON p.org_id = i.org_id AND p.id = i.project_id ORDER BY ${ORDER}`;
  const page = await pool.query({ name: `b-${name}`, text: pageSql, values: [principal.org_id, ...values, 25, 0] });
  const count = page.rows.length
    ? { rows: [{ n: page.rows[0].list_total }] }
    : await pool.query({ name: `b-${name}-count`, text: countSql, values: [principal.org_id, ...values] });
  return { issues: page.rows.map(compact ? compactItem : fullItem), total: count.rows[0].n, limit: 25, offset: 0 };
}

const verifyPage = (expectedTotal, compact) => (status, body, ctx) => {
  if (status !== 200) return `expected 200, got ${status}`;
  if (!Array.isArray(body?.issues)) return 'no issues array (legacy shape expected)';
  if (body.issues.length !== 25) return `expected 25 issues, got ${body.issues.length}`;
  if (body.total !== expectedTotal(ctx)) return `total ${body.total}, expected ${expectedTotal(ctx)}`;
  const first = body.issues[0];
  if (compact && 'identifier' in first) return 'compact items must not carry identifier';
  if (!compact && !/^[A-Z][A-Z0-9]+-\d+$/.test(first.identifier ?? '')) return `full items need an identifier, got ${first.identifier}`;
  for (let k = 1; k < body.issues.length; k++) if (body.issues[k - 1].status === undefined) return 'items without status';
  return null;
};

scenarios.push(
  {
    name: 'issues-list',
    sameBody: true,
    title: 'GET /api/orgs/:id/issues?limit=25 (full items, 100k issues)',
    p99: LIST_P99_MS,
    path: (ctx) => `/api/orgs/${ctx.orgId}/issues?limit=25`,
    headers: bearerHeaders,
    verify: verifyPage((ctx) => ctx.liveTotal, false),
    baseline: ({ pool, principal }) => issuePage(pool, principal, { name: 'issues-list', sameBody: true, compact: false }),
  },
  {
    name: 'issues-board',
    sameBody: true,
    title: 'GET /api/orgs/:id/issues?limit=25&view=board',
    p99: LIST_P99_MS,
    path: (ctx) => `/api/orgs/${ctx.orgId}/issues?limit=25&view=board`,
    headers: bearerHeaders,
    verify: verifyPage((ctx) => ctx.liveTotal, true),
    baseline: ({ pool, principal }) => issuePage(pool, principal, { name: 'issues-board', sameBody: true, compact: true }),
  },
  {
    name: 'issues-filtered',
    sameBody: true,
    title: 'GET /api/orgs/:id/issues?limit=25&status=todo&priority=1',
    p99: LIST_P99_MS,
    path: (ctx) => `/api/orgs/${ctx.orgId}/issues?limit=25&status=todo&priority=1`,
    headers: bearerHeaders,
    verify: verifyPage((ctx) => ctx.todoP1Total, false),
    baseline: ({ pool, principal }) =>
      issuePage(pool, principal, {
        name: 'issues-filtered',
        sameBody: true,
        compact: false,
        filters: ['i.status = ANY($2::text[])', 'i.priority = ANY($3::int[])'],
        counted: ['c.status = ANY($2::text[])', 'c.priority = ANY($3::int[])'],
        values: [['todo'], [1]],
      }),
  },
  {
    name: 'issues-project-board',
    sameBody: true,
    title: 'GET /api/orgs/:id/issues?limit=25&projectId=:p&view=board',
    p99: LIST_P99_MS,
    path: (ctx) => `/api/orgs/${ctx.orgId}/issues?limit=25&projectId=${ctx.filterProjectId}&view=board`,
    baselineQuery: (ctx) => ({ projectId: ctx.filterProjectId }),
    headers: bearerHeaders,
    verify: verifyPage((ctx) => ctx.projectLiveTotal, true),
    async baseline({ pool, principal, url }) {
      // the service checks that the project exists (readable, else 404) before listing
      const projectId = url.searchParams.get('projectId');
      const p = await pool.query({
        name: 'b-project-exists',
        text: 'SELECT 1 FROM projects WHERE org_id = $1 AND id = $2',
        values: [principal.org_id, projectId],
      });
      if (!p.rows.length) throw new Error('project not found');
      return issuePage(pool, principal, {
        name: 'issues-project-board',
        sameBody: true,
        compact: true,
        filters: ['i.project_id = $2'],
        counted: ['c.project_id = $2'],
        values: [projectId],
      });
    },
  },
  {
    name: 'issue-detail',
    sameBody: true,
    title: 'GET /api/orgs/:id/issues/KEY-n (detail)',
    p99: LIST_P99_MS,
    path: (ctx) => `/api/orgs/${ctx.orgId}/issues/${ctx.detailRef}`,
    baselineQuery: (ctx) => ({ ref: ctx.detailRef }),
    headers: bearerHeaders,
    verify: (status, body, ctx) => {
      if (status !== 200) return `expected 200, got ${status}`;
      if (body?.issue?.identifier !== ctx.detailRef) return `identifier ${body?.issue?.identifier}, expected ${ctx.detailRef}`;
      if (!body.issue.creator?.display_name) return 'no creator member object';
      if (!Array.isArray(body.issue.assignees) || !Array.isArray(body.issue.sub_tasks)) return 'no assignees / sub_tasks arrays';
      if (typeof body.issue.isBlocked !== 'boolean') return 'no isBlocked';
      return null;
    },
    async baseline({ pool, principal, url }) {
      // Resolve PROJECT_KEY-n (a project key of the organization), then the record and its extras.
      const m = /^([A-Za-z][A-Za-z0-9]{0,19})-([0-9]{1,9})$/.exec(url.searchParams.get('ref') ?? '');
      if (!m) throw new Error('bad reference');
      const orgId = principal.org_id;
      const { rows } = await pool.query({
        name: 'b-detail-issue',
        text: `SELECT ${FULL_COLUMNS} FROM projects p JOIN issues i ON i.org_id = p.org_id AND i.project_id = p.id
                WHERE p.org_id = $1 AND p.key = $2 AND i.number = $3`,
        values: [orgId, m[1].toUpperCase(), Number(m[2])],
      });
      const r = rows[0];
      if (!r) throw new Error('issue not found');
      const base = { ...fullItem(r), assignee_ids: r.assignee_ids }; // the detail lists the links only
      const memberIds = [...new Set([r.created_by_member_id, ...base.assignee_ids].filter(Boolean))];
      const [members, labels, milestone, subs, blocked] = await Promise.all([
        pool.query({
          name: 'b-detail-members',
          text: 'SELECT id, display_name, type, avatar_url FROM members WHERE org_id = $1 AND id = ANY($2::uuid[])',
          values: [orgId, memberIds],
        }),
        base.label_ids.length
          ? pool.query({
              name: 'b-detail-labels',
              text: 'SELECT id, name, color FROM labels WHERE org_id = $1 AND id = ANY($2::uuid[]) ORDER BY lower(name), id',
              values: [orgId, base.label_ids],
            })
          : { rows: [] },
        r.milestone_id
          ? pool.query({ name: 'b-detail-ms', text: 'SELECT id, name FROM milestones WHERE org_id = $1 AND id = $2', values: [orgId, r.milestone_id] })
          : { rows: [] },
        pool.query({
          name: 'b-detail-subs',
          text: `SELECT i.id, i.number, i.title, i.status, p.key FROM issues i LEFT JOIN projects p ON p.org_id = i.org_id AND p.id = i.project_id
                  WHERE i.org_id = $1 AND i.parent_id = $2 ORDER BY i.created_at, i.id`,
          values: [orgId, r.id],
        }),
        pool.query({
          name: 'b-detail-blocked',
          text: `SELECT EXISTS (SELECT 1 FROM issue_dependencies d JOIN issues b ON b.org_id = d.org_id AND b.id = d.blocking_issue_id
                   WHERE d.org_id = $1 AND d.blocked_issue_id = $2 AND NOT (b.archived_at IS NOT NULL OR b.status IN ('done', 'cancelled') OR (d.release_column_id IS NOT NULL AND EXISTS (
                     SELECT 1 FROM board_columns rc JOIN board_columns sc ON sc.org_id = rc.org_id AND sc.project_id = rc.project_id AND sc.key = b.status
                      WHERE rc.org_id = d.org_id AND rc.id = d.release_column_id AND rc.project_id = b.project_id AND sc.position >= rc.position)))) AS blocked`,
          values: [orgId, r.id],
        }),
      ]);
      const member = (id) => {
        const x = id ? members.rows.find((y) => y.id === id) : undefined;
        return x ? { id: x.id, display_name: x.display_name, type: x.type, avatar_url: x.avatar_url ?? null } : null;
      };
      const labelList = labels.rows.map((l) => ({ id: l.id, name: l.name, color: l.color }));
      return {
        issue: {
          ...base,
          creator: member(r.created_by_member_id),
          assignee: member(r.assignee_id),
          assignees: base.assignee_ids.map(member).filter(Boolean),
          labels: labelList,
          issue_labels: labelList,
          milestone: milestone.rows[0] ? { id: milestone.rows[0].id, name: milestone.rows[0].name } : null,
          sub_tasks: subs.rows.map((s) => ({
            id: s.id,
            number: s.number,
            identifier: s.key ? `${s.key}-${s.number}` : null,
            title: s.title,
            status: s.status,
          })),
          isBlocked: !!blocked.rows[0].blocked,
        },
      };
    },
  },
  {
    name: 'dependency-chain',
    title: 'GET /api/orgs/:id/issues/:root/dependencies?view=chain&depth=5 (5,000-issue DAG)',
    ratio: null,
    p99: CHAIN_P99_MS,
    path: (ctx) => `/api/orgs/${ctx.orgId}/issues/${ctx.chainRootId}/dependencies?view=chain&depth=5`,
    baselineQuery: (ctx) => ({ root: ctx.chainRootId }),
    headers: bearerHeaders,
    verify: (status, body) => {
      if (status !== 200) return `expected 200, got ${status}`;
      if (!Array.isArray(body?.nodes) || !Array.isArray(body?.edges)) return 'no nodes / edges';
      if (body.counts?.nodes < 200) return `depth 5 should reach hundreds of nodes, counts.nodes = ${body.counts?.nodes}`;
      if (body.nodes.length !== 50 || !body.page?.has_more) return 'expected a first page of 50 nodes with more to come';
      return null;
    },
    async baseline({ pool, principal, url }) {
      // The same work as the service: the root (readable), then one statement that walks both
      // directions (recursive CTEs), ranks the nodes (distance, id), evaluates readiness and the
      // edge count over the whole graph and returns the first page's nodes and edges as JSON.
      // The caller (role member) reads every project and projectless issues: no restricted nodes.
      const orgId = principal.org_id;
      const rootId = url.searchParams.get('root');
      const depth = 5;
      const limit = 50;
      const root = await pool.query({ name: 'b-chain-root', text: 'SELECT id, project_id FROM issues WHERE org_id = $1 AND id = $2', values: [orgId, rootId] });
      if (!root.rows.length) throw new Error('root not found');
      const { rows } = await pool.query({ name: 'b-chain', text: CHAIN_BASELINE_SQL, values: [orgId, rootId, depth, 0, limit] });
      const r = rows[0];
      const counts = {
        nodes: r.counts.nodes,
        edges: r.edge_count,
        readable_nodes: r.counts.nodes,
        restricted_nodes: 0,
        ready: r.counts.ready,
        blocked: r.counts.blocked,
        complete: r.counts.complete,
        unknown: 0,
      };
      const nodes = r.nodes.map((n) => ({
        id: n.id,
        number: n.number,
        identifier: n.project_key ? `${n.project_key}-${n.number}` : null,
        projectSlug: n.project_slug,
        title: n.title,
        status: n.status,
        project_id: n.project_id,
        readiness: n.readiness,
      }));
      const edges = r.edges.map((e) => ({
        id: e.id,
        from: e.from,
        to: e.to,
        from_readable: true,
        to_readable: true,
        release_condition: e.rc_key != null ? { column_id: e.release_column_id, key: e.rc_key, label: e.rc_label } : null,
        satisfied: !!e.satisfied,
        reason: e.blocker_complete
          ? 'blocker_complete'
          : e.satisfied
            ? 'release_column_reached'
            : e.rc_key != null
              ? 'waiting_for_release_column'
              : 'legacy_open_blocker',
      }));
      const hasMore = limit < counts.nodes;
      return {
        root_issue_id: rootId,
        direction: 'both',
        depth,
        nodes,
        edges,
        counts,
        page: { limit, next_cursor: hasMore ? 'opaque' : null, has_more: hasMore },
      };
    },
  },
);

scenarios.push(
  {
    // The strategy audit over the bulk-seeded strategy (seed-strategy.mjs: 200 goals, 1,000 KPIs with
    // 30 snapshots each, 500 initiatives, 20,000 linked issues). No baseline equivalent: the baseline
    // answers a trivial count, so only the service's p99 target counts (ratio: null).
    name: 'strategy-audit',
    title: 'GET /strategy/audit (200 goals, 1k KPIs, 500 initiatives, 20k linked issues)',
    path: (ctx) => `/api/orgs/${ctx.orgId}/strategy/audit`,
    headers: bearerHeaders,
    verify: (status, body) => (status !== 200 ? `status ${status}` : !Array.isArray(body.findings) ? 'no findings array' : null),
    baseline: async ({ pool, principal }) => {
      const { rows } = await pool.query({ name: 'b-audit', text: 'SELECT count(*)::int AS n FROM goals WHERE org_id = $1', values: [principal.org_id] });
      return { findings: [], summary: { total: rows[0].n } };
    },
    ratio: null,
    p99: 250,
  },
  {
    // what HTTP client libraries send by default (fetch, browsers, requests): the kept audit goes
    // out gzipped (compressed once per kept result), about a tenth of the bytes
    name: 'strategy-audit-gzip',
    title: 'GET /strategy/audit with Accept-Encoding: gzip (same organization)',
    path: (ctx) => `/api/orgs/${ctx.orgId}/strategy/audit`,
    headers: (ctx) => ({ ...bearerHeaders(ctx), 'accept-encoding': 'gzip' }),
    verify: (status, body) => (status !== 200 ? `status ${status}` : !Array.isArray(body.findings) ? 'no findings array' : null),
    baseline: async ({ pool, principal }) => {
      const { rows } = await pool.query({ name: 'b-audit', text: 'SELECT count(*)::int AS n FROM goals WHERE org_id = $1', values: [principal.org_id] });
      return { findings: [], summary: { total: rows[0].n } };
    },
    ratio: null,
    p99: 250,
  },
);

// ---------------------------------------------------------------------------------------------
// Analytics (issue 20): GET /analytics over the last 366 days of the bulk-seeded organization
// (100,000 issues). The baseline runs the service's aggregate statement (AnalyticsRepository,
// AGGREGATES_SQL) uncached for a caller who reads every project, so the table shows the service's
// kept result beside the statement's own cost; the target is the service's p99 (ratio: null).
const { AGGREGATES_SQL } = require('../dist/src/modules/analytics/analytics.repository.js');
const DAY = 86_400_000;
const analyticsRange = () => {
  const to = new Date(Math.floor(Date.now() / DAY) * DAY);
  return { from: new Date(to.getTime() - 365 * DAY).toISOString().slice(0, 10), to: to.toISOString().slice(0, 10) };
};
scenarios.push({
  name: 'analytics',
  title: 'GET /analytics (366 days, 100k issues)',
  path: (ctx) => `/api/orgs/${ctx.orgId}/analytics?${new URLSearchParams(analyticsRange())}`,
  headers: bearerHeaders,
  verify: (status, body) => (status !== 200 ? `status ${status}` : body?.days?.length !== 366 ? `expected 366 days, got ${body?.days?.length}` : null),
  baseline: async ({ pool, principal }) => {
    const r = analyticsRange();
    const from = new Date(`${r.from}T00:00:00Z`);
    const to = new Date(new Date(`${r.to}T00:00:00Z`).getTime() + DAY);
    const { rows } = await pool.query({ name: 'b-analytics', text: AGGREGATES_SQL, values: [principal.org_id, true, [], true, null, null, from, to] });
    return rows[0];
  },
  ratio: null,
  p99: 200,
  connections: 20,
});

// ---------------------------------------------------------------------------------------------
// Issue search (issue 13): GET /issues/search over the bulk-seeded organization (100,000 issues,
// ~50,000 comments; seed-issues.mjs), for a word that is in about 100 comments and in no title or
// description. The baseline runs the service's statement (IssueListRepository.search /
// issueSearchStatement, for a caller who reads every project: no project filter, archived issues
// excluded, no reference form) as an unnamed statement, as the service does, and maps the rows the same way.

/** The service's text-search query of `$2` (every word, each of two characters or more as a prefix). */
const SEARCH_TSQUERY = `(regexp_replace(plainto_tsquery('simple'::regconfig, $2)::text, '(''[^'']{2,}'')( |$)', '\\1:*\\2', 'g')::tsquery)`;
const SEARCH_WHERE = 'i.org_id = $1 AND i.archived_at IS NULL';
/** The service's SEARCH_MATCH_CAP: matches of each kind read at most. */
const SEARCH_MATCH_CAP = 1000;
const SEARCH_ORDER = 'h.tier DESC, h.rank DESC, h.updated_at DESC, h.id DESC';
export const SEARCH_BASELINE_SQL = `
    WITH hits AS (
      SELECT u.id, max(u.updated_at) AS updated_at, max(u.tier) AS tier, max(u.rank) AS rank
        FROM ((SELECT i.id, i.updated_at, CASE WHEN ts_filter(i.search_vector, '{a}') @@ ${SEARCH_TSQUERY} THEN 3 ELSE 2 END AS tier, ts_rank(i.search_vector, ${SEARCH_TSQUERY}) AS rank
                 FROM issues i WHERE ${SEARCH_WHERE} AND i.search_vector @@ ${SEARCH_TSQUERY} LIMIT ${SEARCH_MATCH_CAP})
              UNION ALL
              (SELECT i.id, i.updated_at, 1, cm.rank
                 FROM (SELECT c.issue_id, ts_rank(c.search_vector, ${SEARCH_TSQUERY}) AS rank
                         FROM comments c WHERE c.org_id = $1 AND c.deleted_at IS NULL AND c.search_vector @@ ${SEARCH_TSQUERY}) cm
                 JOIN issues i ON i.org_id = $1 AND i.id = cm.issue_id WHERE ${SEARCH_WHERE} LIMIT ${SEARCH_MATCH_CAP})
              UNION ALL
              (SELECT i.id, i.updated_at, 3, 0::real FROM issues i WHERE ${SEARCH_WHERE} AND i.title ILIKE $3 ESCAPE '\\' LIMIT ${SEARCH_MATCH_CAP})) u
       GROUP BY u.id
    )
    SELECT ${FULL_COLUMNS}, n.total AS search_total
      FROM (SELECT count(*)::int AS total FROM hits) n
      LEFT JOIN LATERAL (SELECT h.* FROM hits h ORDER BY ${SEARCH_ORDER} LIMIT $4 OFFSET $5) h ON true
      LEFT JOIN issues i ON i.org_id = $1 AND i.id = h.id
      LEFT JOIN projects p ON p.org_id = i.org_id AND p.id = i.project_id
     ORDER BY ${SEARCH_ORDER}`;

scenarios.push({
  name: 'issue_search',
  sameBody: true,
  title: 'GET /api/orgs/:id/issues/search?q=<a word of ~100 comments> (100k issues, 50k comments)',
  p99: LIST_P99_MS,
  path: (ctx) => `/api/orgs/${ctx.orgId}/issues/search?q=${encodeURIComponent(ctx.searchQuery)}`,
  baselineQuery: (ctx) => ({ q: ctx.searchQuery }),
  headers: bearerHeaders,
  verify: (status, body, ctx) => {
    if (status !== 200) return `expected 200, got ${status}`;
    if (!Array.isArray(body?.issues)) return 'no issues array (legacy shape expected)';
    if (body.total !== ctx.searchTotal) return `total ${body.total}, expected ${ctx.searchTotal}`;
    if (body.issues.length !== Math.min(25, ctx.searchTotal)) return `expected ${Math.min(25, ctx.searchTotal)} issues, got ${body.issues.length}`;
    if (ctx.searchTotal < 25) return `the seeded word is in only ${ctx.searchTotal} issues' comments`;
    return null;
  },
  async baseline({ pool, principal, url }) {
    if (principal.role === 'guest') throw new Error('the bench agent must not be a guest');
    const q = (url.searchParams.get('q') ?? '').trim();
    const pattern = /[\p{L}\p{N}]{3}/u.test(q) ? `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
    if (!pattern) throw new Error('the bench query must have three letters or digits in a row');
    const { rows } = await pool.query({ text: SEARCH_BASELINE_SQL, values: [principal.org_id, q, pattern, 25, 0] });
    const items = rows.filter((r) => r.id !== null);
    return { issues: items.map(fullItem), total: rows[0]?.search_total ?? 0, limit: 25, offset: 0 };
  },
});

// Artifacts (seed-artifacts.mjs): the revision history of an artifact with 1,000 revisions (first
// page of 100 summaries, no content) and the issue detail with its artifact manifest.
scenarios.push(
  {
    name: 'artifact-revisions',
    sameBody: true,
    title: 'GET /api/orgs/:id/artifacts/:artifactId/revisions?limit=100 (1,000 revisions)',
    p99: LIST_P99_MS,
    path: (ctx) => `/api/orgs/${ctx.orgId}/artifacts/${ctx.artifactHistoryId}/revisions?limit=100`,
    baselineQuery: (ctx) => ({ artifact: ctx.artifactHistoryId }),
    headers: bearerHeaders,
    verify: (status, body, ctx) => {
      if (status !== 200) return `expected 200, got ${status}`;
      if (!Array.isArray(body?.revisions) || body.revisions.length !== 100) return 'expected 100 revision summaries';
      if (body.revisions[0].revision_number !== ctx.artifactRevisions) return `newest first: got ${body.revisions[0].revision_number}`;
      if ('content' in body.revisions[0]) return 'summaries carry no content';
      if (body.hasMore !== true) return 'hasMore should be true';
      return null;
    },
    async baseline({ pool, principal, url }) {
      if (principal.role === 'guest') throw new Error('the bench agent must not be a guest');
      const orgId = principal.org_id;
      const artifactId = url.searchParams.get('artifact');
      // the artifact and its links (the access check: a member reads every project), then the page
      const [a, links, page] = await Promise.all([
        pool.query({ name: 'b-art', text: 'SELECT id FROM artifacts WHERE org_id = $1 AND id = $2', values: [orgId, artifactId] }),
        pool.query({
          name: 'b-art-links',
          text: `SELECT l.id, COALESCE(l.project_id, i.project_id) AS project_id FROM artifact_links l
                   LEFT JOIN issues i ON i.org_id = l.org_id AND i.id = l.issue_id WHERE l.org_id = $1 AND l.artifact_id = $2`,
          values: [orgId, artifactId],
        }),
        pool.query({
          name: 'b-art-revisions',
          text: `SELECT r.id, r.artifact_id, r.revision_number, r.title_snapshot, r.content_format, r.content_digest,
                        CASE WHEN m.removed_at IS NULL THEN r.created_by_member_id END AS created_by, r.created_at
                   FROM artifact_revisions r LEFT JOIN members m ON m.org_id = r.org_id AND m.id = r.created_by_member_id
                  WHERE r.org_id = $1 AND r.artifact_id = $2 ORDER BY r.revision_number DESC LIMIT $3 OFFSET $4`,
          values: [orgId, artifactId, 101, 0],
        }),
      ]);
      if (!a.rows[0] || !links.rows) throw new Error('artifact not found');
      return {
        revisions: page.rows.slice(0, 100).map((r) => ({ ...r, created_by: r.created_by ?? null, created_at: iso(r.created_at) })),
        limit: 100,
        offset: 0,
        hasMore: page.rows.length > 100,
      };
    },
  },
  {
    name: 'issue-detail-manifest',
    sameBody: true,
    title: 'GET /api/orgs/:id/issues/KEY-n?include=artifact_manifest (6 linked artifacts)',
    p99: LIST_P99_MS,
    path: (ctx) => `/api/orgs/${ctx.orgId}/issues/${ctx.detailRef}?include=artifact_manifest`,
    baselineQuery: (ctx) => ({ ref: ctx.detailRef }),
    headers: bearerHeaders,
    verify: (status, body, ctx) => {
      if (status !== 200) return `expected 200, got ${status}`;
      if (body?.issue?.identifier !== ctx.detailRef) return `identifier ${body?.issue?.identifier}, expected ${ctx.detailRef}`;
      if (body.issue.artifact_manifest?.length !== ctx.manifestSize) return `expected ${ctx.manifestSize} manifest entries`;
      return null;
    },
    async baseline(args) {
      // the plain detail (the issue-detail scenario's baseline), then the manifest
      const body = await scenarios.find((s) => s.name === 'issue-detail').baseline(args);
      const { rows } = await args.pool.query({
        name: 'b-manifest',
        text: `SELECT a.id, a.type, a.title, a.current_revision_id, a.current_revision_number AS revision_number, a.created_at, a.updated_at
                 FROM artifact_links l JOIN artifacts a ON a.org_id = l.org_id AND a.id = l.artifact_id
                WHERE l.org_id = $1 AND l.issue_id = $2 ORDER BY a.updated_at DESC, a.id DESC LIMIT 1000`,
        values: [args.principal.org_id, body.issue.id],
      });
      body.issue.artifact_manifest = rows.map((a) => ({
        id: a.id,
        artifact_id: a.id,
        type: a.type,
        title: a.title,
        current_revision_id: a.current_revision_id,
        revision_number: a.revision_number,
        created_at: iso(a.created_at),
        updated_at: iso(a.updated_at),
      }));
      return body;
    },
  },
);
// Writes: many agents writing to one organization (write-scenarios.mjs).
scenarios.push(...writeScenarios);

// The agent heartbeat (issue 14) is its own phase (bench/heartbeat.mjs, BENCH_ONLY=heartbeat): its own
// organization of the issue's size, 20 agents with mixed access, and writers during the measured run.
