import { Injectable } from '@nestjs/common';
import { type Tx, Sql } from '../../database/sql.service';
import type { ChainCounts } from './dependencies.response';

const IDENT = /^[a-z_][a-z0-9_]*$/;
const ident = (a: string): string => {
  if (!IDENT.test(a)) throw new Error(`Invalid SQL alias: ${a}`);
  return a;
};

/**
 * The one definition of a satisfied dependency as SQL (DependencyRules explains it; the issue
 * detail, the issue list and the strategy audit embed these fragments in their own statements).
 *
 * SQL boolean: the dependency row `dep` (an `issue_dependencies` alias) is satisfied, given
 * `blocker` (an `issues` alias of its blocking issue).
 */
export function satisfiedSql(dep = 'd', blocker = 'b'): string {
  const d = ident(dep);
  const b = ident(blocker);
  return `(${b}.archived_at IS NOT NULL OR ${b}.status IN ('done', 'cancelled') OR (${d}.release_column_id IS NOT NULL AND EXISTS (
      SELECT 1 FROM board_columns dr_rc
        JOIN board_columns dr_sc ON dr_sc.org_id = dr_rc.org_id AND dr_sc.project_id = dr_rc.project_id AND dr_sc.key = ${b}.status
       WHERE dr_rc.org_id = ${d}.org_id AND dr_rc.id = ${d}.release_column_id AND dr_rc.project_id = ${b}.project_id
         AND dr_sc.position >= dr_rc.position)))`;
}

/** SQL boolean: issue `<alias>` (an `issues` alias) has at least one unsatisfied blocker. */
export function blockedIssuesSql(orgAlias = 'i'): string {
  const i = ident(orgAlias);
  return `EXISTS (SELECT 1 FROM issue_dependencies dr_d
      JOIN issues dr_b ON dr_b.org_id = dr_d.org_id AND dr_b.id = dr_d.blocking_issue_id
     WHERE dr_d.org_id = ${i}.org_id AND dr_d.blocked_issue_id = ${i}.id AND NOT ${satisfiedSql('dr_d', 'dr_b')})`;
}

/** SQL boolean over joined board columns (see DependencyRules.satisfiedByColumnsSql). */
export function satisfiedByColumnsSql(dep: string, release: string, reached: string): string {
  const [d, rc, sc] = [ident(dep), ident(release), ident(reached)];
  return `(${d}.archived_at IS NOT NULL OR ${d}.status IN ('done', 'cancelled')
      OR (${d}.release_column_id IS NOT NULL AND coalesce(${sc}.position >= ${rc}.position, false)))`;
}

/**
 * A dependency of a root issue seen from it: `o_*` columns are the other
 * issue, `blocker_project_id` the blocking issue's project, `rc_*` the release column (null
 * unless it is a column of the blocker's project), `satisfied` per DependencyRules.
 */
export interface DependencyRow {
  id: string;
  created_at: Date;
  blocking_issue_id: string;
  blocked_issue_id: string;
  release_column_id: string | null;
  rc_key: string | null;
  rc_label: string | null;
  rc_position: number | null;
  rc_project_id: string | null;
  satisfied: boolean;
  blocker_project_id: string | null;
  o_id: string;
  o_number: number;
  o_title: string;
  o_status: string;
  o_project_id: string | null;
  o_project_key: string | null;
  o_project_slug: string | null;
}

/** A removed dependency with the projects of both of its issues. */
export interface RemovedDependencyRow {
  blocking_issue_id: string;
  blocked_issue_id: string;
  blocking_project_id: string | null;
  blocked_project_id: string | null;
}

/** A node of a chain page: issue details only when readable. */
export interface ChainNodeRow {
  id: string;
  readable: boolean;
  readiness: 'ready' | 'blocked' | 'complete' | 'unknown';
  number: number | null;
  title: string | null;
  status: string | null;
  project_id: string | null;
  project_key: string | null;
  project_slug: string | null;
}

/** An edge of a chain page: release details only when its blocking side is readable. */
export interface ChainEdgeRow {
  id: string;
  from: string;
  to: string;
  from_readable: boolean;
  to_readable: boolean;
  release_column_id: string | null;
  /** Null when there is no release column (or the blocking side is unreadable); then so is rc_label. */
  rc_key: string | null;
  rc_label: string | null;
  satisfied: boolean;
  blocker_complete: boolean;
}

/** One page of the chain view (CHAIN_SQL): counts over the whole graph, the page's nodes and edges as JSON. */
export interface ChainRow {
  counts: Omit<ChainCounts, 'edges'>;
  edge_count: number;
  nodes: ChainNodeRow[];
  edges: ChainEdgeRow[];
}

/** The walk and the caller's readability of one chain page (CHAIN_SQL parameters $1..$9). */
export interface ChainWalk {
  orgId: string;
  rootId: string;
  depth: number;
  upstream: boolean;
  downstream: boolean;
  allReadable: boolean;
  readableProjectIds: string[];
  offset: number;
  limit: number;
}

const ROWS_SQL = (oneDependency: boolean): string => `SELECT d.id, d.created_at, d.blocking_issue_id, d.blocked_issue_id, d.release_column_id,
            rc.key AS rc_key, rc.label AS rc_label, rc.position AS rc_position, rc.project_id AS rc_project_id,
            ${satisfiedSql('d', 'b')} AS satisfied, b.project_id AS blocker_project_id,
            o.id AS o_id, o.number AS o_number, o.title AS o_title, o.status AS o_status, o.project_id AS o_project_id,
            op.key AS o_project_key, op.slug AS o_project_slug
       FROM issue_dependencies d
       JOIN issues b ON b.org_id = d.org_id AND b.id = d.blocking_issue_id
       JOIN issues o ON o.org_id = d.org_id AND o.id = CASE WHEN d.blocked_issue_id = $2 THEN d.blocking_issue_id ELSE d.blocked_issue_id END
       LEFT JOIN projects op ON op.org_id = o.org_id AND op.id = o.project_id
       LEFT JOIN board_columns rc ON rc.org_id = d.org_id AND rc.id = d.release_column_id AND rc.project_id = b.project_id
      WHERE d.org_id = $1 AND (d.blocked_issue_id = $2 OR d.blocking_issue_id = $2) ${oneDependency ? 'AND d.id = $3' : ''}
      ORDER BY d.created_at, d.id`;
const ALL_ROWS_SQL = ROWS_SQL(false);
const ONE_ROW_SQL = ROWS_SQL(true);

/**
 * The whole chain view in one statement (parameters: $1 organization, $2 root, $3 depth, $4 walk
 * upstream, $5 walk downstream, $6 every project and projectless issues readable, $7 the readable
 * project ids otherwise, $8 offset, $9 limit):
 * - `up` / `down`: one bounded recursive CTE per direction over the dependency indexes, deduplicated
 *   per (issue, distance); `nodes`: each issue once with its least distance, its readability and its
 *   position in the page order (distance, then id);
 * - `dep`: every dependency blocking a node (for readiness), one index probe per node; its blocker
 *   taken from the walked nodes (read by primary key only beyond the depth); "satisfied" by
 *   DependencyRules over the board columns of the blockers' projects (`cols`: a few rows, hashed);
 * - `edges`: the traversed edges (both ends nodes, the inner end closer than `depth`) with the page
 *   position of their later endpoint;
 * - the result: the counts over the whole graph, and only the page's nodes (details joined for
 *   those alone) and edges, as JSON. Nothing grows with the graph on the way to Node.js.
 */
export const CHAIN_SQL = (satisfied: string): string => `
  WITH RECURSIVE up(issue_id, depth) AS (
    SELECT $2::uuid, 0 WHERE $4::boolean
    UNION
    SELECT d.blocking_issue_id, u.depth + 1 FROM up u JOIN issue_dependencies d ON d.org_id = $1 AND d.blocked_issue_id = u.issue_id WHERE u.depth < $3
  ), down(issue_id, depth) AS (
    SELECT $2::uuid, 0 WHERE $5::boolean
    UNION
    SELECT d.blocked_issue_id, w.depth + 1 FROM down w JOIN issue_dependencies d ON d.org_id = $1 AND d.blocking_issue_id = w.issue_id WHERE w.depth < $3
  ), walked AS (
    SELECT issue_id, min(ud) AS ud, min(dd) AS dd
      FROM (SELECT issue_id, depth AS ud, NULL::int AS dd FROM up UNION ALL SELECT issue_id, NULL::int, depth FROM down) x
     GROUP BY issue_id
  ), nodes AS MATERIALIZED (
    SELECT w.issue_id AS id, w.ud, w.dd, i.project_id, i.status, i.archived_at,
           CASE WHEN i.project_id IS NULL THEN $6::boolean ELSE ($6::boolean OR i.project_id = ANY($7::uuid[])) END AS readable,
           (row_number() OVER (ORDER BY least(w.ud, w.dd), w.issue_id) - 1)::int AS idx
      FROM walked w JOIN issues i ON i.org_id = $1 AND i.id = w.issue_id
  ), links AS MATERIALIZED (
    -- per node, an index probe (the work follows the walked nodes, not the organization's graph)
    SELECT d.id, d.blocking_issue_id, d.blocked_issue_id, d.release_column_id
      FROM nodes n
      CROSS JOIN LATERAL (SELECT d.id, d.blocking_issue_id, d.blocked_issue_id, d.release_column_id FROM issue_dependencies d
                           WHERE d.org_id = $1 AND d.blocked_issue_id = n.id OFFSET 0) d
  ), dep AS MATERIALIZED (
    SELECT d.id, d.blocking_issue_id, d.blocked_issue_id, d.release_column_id,
           coalesce(bn.project_id, b.project_id) AS project_id, coalesce(bn.status, b.status) AS status,
           CASE WHEN bn.id IS NULL THEN b.archived_at ELSE bn.archived_at END AS archived_at
      FROM links d
      LEFT JOIN nodes bn ON bn.id = d.blocking_issue_id
      -- a blocker outside the walked nodes (beyond the depth) is read by primary key
      LEFT JOIN LATERAL (SELECT b.project_id, b.status, b.archived_at FROM issues b
                          WHERE bn.id IS NULL AND b.org_id = $1 AND b.id = d.blocking_issue_id OFFSET 0) b ON true
  ), cols AS MATERIALIZED (
    SELECT c.id, c.project_id, c.key, c.label, c.position FROM board_columns c
     WHERE c.org_id = $1 AND c.project_id IN (SELECT DISTINCT project_id FROM dep)
  ), deps AS MATERIALIZED (
    SELECT d.id, d.blocking_issue_id, d.blocked_issue_id, d.release_column_id, d.project_id AS blocker_project_id,
           rc.key AS rc_key, rc.label AS rc_label, ${satisfied} AS satisfied,
           (d.archived_at IS NOT NULL OR d.status IN ('done', 'cancelled')) AS blocker_complete,
           CASE WHEN d.project_id IS NULL THEN $6::boolean ELSE ($6::boolean OR d.project_id = ANY($7::uuid[])) END AS blocker_readable
      FROM dep d
      LEFT JOIN cols rc ON rc.id = d.release_column_id AND rc.project_id = d.project_id
      LEFT JOIN cols sc ON sc.project_id = d.project_id AND sc.key = d.status
  ), ranked AS MATERIALIZED (
    SELECT n.id, n.idx, n.readable,
           CASE WHEN NOT n.readable THEN NULL
                WHEN n.archived_at IS NOT NULL OR n.status IN ('done', 'cancelled') THEN 'complete'
                WHEN f.blocked THEN 'blocked'
                WHEN f.unknown THEN 'unknown'
                ELSE 'ready' END AS readiness
      FROM nodes n
      LEFT JOIN (SELECT blocked_issue_id, bool_or(blocker_readable AND NOT satisfied) AS blocked, bool_or(NOT blocker_readable) AS unknown
                   FROM deps GROUP BY blocked_issue_id) f ON f.blocked_issue_id = n.id
  ), edges AS MATERIALIZED (
    SELECT e.*, fn.readable AS from_readable, tn.readable AS to_readable, greatest(fn.idx, tn.idx) AS at
      FROM deps e JOIN nodes fn ON fn.id = e.blocking_issue_id JOIN nodes tn ON tn.id = e.blocked_issue_id
     WHERE (tn.ud < $3 AND fn.ud IS NOT NULL) OR (fn.dd < $3 AND tn.dd IS NOT NULL)
  )
  SELECT
    (SELECT json_build_object(
              'nodes', count(*), 'readable_nodes', count(*) FILTER (WHERE readable), 'restricted_nodes', count(*) FILTER (WHERE NOT readable),
              'ready', count(*) FILTER (WHERE readiness = 'ready'), 'blocked', count(*) FILTER (WHERE readiness = 'blocked'),
              'complete', count(*) FILTER (WHERE readiness = 'complete'), 'unknown', count(*) FILTER (WHERE readiness = 'unknown'))
       FROM ranked) AS counts,
    (SELECT count(*)::int FROM edges) AS edge_count,
    (SELECT coalesce(json_agg(json_build_object('id', r.id, 'readable', r.readable, 'readiness', r.readiness, 'number', i.number, 'title', i.title,
                                                'status', i.status, 'project_id', i.project_id, 'project_key', p.key, 'project_slug', p.slug)
                              ORDER BY r.idx), '[]'::json)
       FROM ranked r
       LEFT JOIN issues i ON r.readable AND i.org_id = $1 AND i.id = r.id
       LEFT JOIN projects p ON p.org_id = i.org_id AND p.id = i.project_id
      WHERE r.idx >= $8 AND r.idx < $8 + $9) AS nodes,
    (SELECT coalesce(json_agg(json_build_object('id', e.id, 'from', e.blocking_issue_id, 'to', e.blocked_issue_id, 'from_readable', e.from_readable,
                                                'to_readable', e.to_readable, 'release_column_id', e.release_column_id,
                                                'rc_key', CASE WHEN e.from_readable THEN e.rc_key END, 'rc_label', CASE WHEN e.from_readable THEN e.rc_label END,
                                                'satisfied', e.satisfied, 'blocker_complete', e.blocker_complete)
                              ORDER BY e.id), '[]'::json)
       FROM edges e
      WHERE e.at >= $8 AND e.at < $8 + $9) AS edges`;

const IS_BLOCKED_SQL = `SELECT ${blockedIssuesSql('i')} AS blocked FROM issues i WHERE i.org_id = $1 AND i.id = $2`;
const CHAIN_PAGE_SQL = CHAIN_SQL(satisfiedByColumnsSql('d', 'rc', 'sc'));

/** Statements of issue dependencies (`issue_dependencies`) and of the dependency chain read model. */
@Injectable()
export class DependenciesRepository {
  constructor(private readonly sql: Sql) {}

  /** Whether one issue has an unsatisfied blocker. */
  async isBlocked(orgId: string, issueId: string, m?: Tx): Promise<boolean> {
    const row = await this.sql.row<{ blocked: boolean }>(IS_BLOCKED_SQL, [orgId, issueId], m);
    return !!row?.blocked;
  }

  /** Serializes dependency creation per organization until the transaction ends (advisory lock). */
  async lockGraph(orgId: string, m: Tx): Promise<void> {
    await this.sql.run('SELECT pg_advisory_xact_lock(hashtext($1))', [`issue_dependencies:${orgId}`], m);
  }

  /** Whether `columnId` is a board column of project `projectId` (look-up of the projects module's board columns). */
  async isProjectColumn(orgId: string, projectId: string, columnId: string, m?: Tx): Promise<boolean> {
    return !!(await this.sql.row('SELECT 1 FROM board_columns WHERE org_id = $1 AND project_id = $2 AND id = $3', [orgId, projectId, columnId], m));
  }

  /** The project's `done` column, else its last column (look-up of the projects module's board columns). */
  async defaultReleaseColumn(orgId: string, projectId: string, m?: Tx): Promise<string | null> {
    const row = await this.sql.row<{ id: string }>(
      `SELECT id FROM board_columns WHERE org_id = $1 AND project_id = $2 ORDER BY (key = 'done') DESC, position DESC LIMIT 1`,
      [orgId, projectId],
      m,
    );
    return row?.id ?? null;
  }

  /** Whether `blockingId` already blocks `blockedId`. */
  async exists(orgId: string, blockingId: string, blockedId: string, m?: Tx): Promise<boolean> {
    return !!(await this.sql.row(
      'SELECT 1 FROM issue_dependencies WHERE org_id = $1 AND blocking_issue_id = $2 AND blocked_issue_id = $3',
      [orgId, blockingId, blockedId],
      m,
    ));
  }

  /** Whether `targetId` is reachable from `fromId` along "blocks" edges (a new edge target → from would close a cycle). */
  async reaches(orgId: string, fromId: string, targetId: string, m?: Tx): Promise<boolean> {
    const rows = await this.sql.rows(
      `WITH RECURSIVE reach(issue_id) AS (
           SELECT $2::uuid
           UNION
           SELECT d.blocked_issue_id FROM reach r JOIN issue_dependencies d ON d.org_id = $1 AND d.blocking_issue_id = r.issue_id
         )
         SELECT 1 FROM reach WHERE issue_id = $3 LIMIT 1`,
      [orgId, fromId, targetId],
      m,
    );
    return rows.length > 0;
  }

  /** Inserts one dependency (unique violations come back as QueryFailedError). */
  async insert(
    d: { orgId: string; id: string; blockingIssueId: string; blockedIssueId: string; releaseColumnId: string | null; createdByMemberId: string | null },
    m: Tx,
  ): Promise<void> {
    await this.sql.run(
      `INSERT INTO issue_dependencies (org_id, id, blocking_issue_id, blocked_issue_id, release_column_id, created_by_member_id)
           VALUES ($1, $2, $3, $4, $5, $6)`,
      [d.orgId, d.id, d.blockingIssueId, d.blockedIssueId, d.releaseColumnId, d.createdByMemberId],
      m,
    );
  }

  /** Every dependency of issue `rootId` (both sides), seen from it, oldest first. */
  rowsOf(orgId: string, rootId: string, m?: Tx): Promise<DependencyRow[]> {
    return this.sql.rows<DependencyRow>(ALL_ROWS_SQL, [orgId, rootId], m);
  }

  /** Dependency `dependencyId` of issue `rootId` seen from it, or undefined. */
  rowOf(orgId: string, rootId: string, dependencyId: string, m?: Tx): Promise<DependencyRow | undefined> {
    return this.sql.row<DependencyRow>(ONE_ROW_SQL, [orgId, rootId, dependencyId], m);
  }

  /** Deletes dependency `dependencyId` when issue `issueId` is one of its sides; answers what it joined. */
  remove(orgId: string, dependencyId: string, issueId: string, m?: Tx): Promise<RemovedDependencyRow | undefined> {
    return this.sql.row<RemovedDependencyRow>(
      `DELETE FROM issue_dependencies d
          WHERE d.org_id = $1 AND d.id = $2 AND (d.blocking_issue_id = $3 OR d.blocked_issue_id = $3)
        RETURNING d.blocking_issue_id, d.blocked_issue_id,
          (SELECT project_id FROM issues WHERE org_id = d.org_id AND id = d.blocking_issue_id) AS blocking_project_id,
          (SELECT project_id FROM issues WHERE org_id = d.org_id AND id = d.blocked_issue_id) AS blocked_project_id`,
      [orgId, dependencyId, issueId],
      m,
    );
  }

  /** Sets the release column of dependency `id`. */
  async setReleaseColumn(orgId: string, id: string, columnId: string, m?: Tx): Promise<void> {
    await this.sql.run('UPDATE issue_dependencies SET release_column_id = $3 WHERE org_id = $1 AND id = $2', [orgId, id, columnId], m);
  }

  /** The dependencies that issue `issueId` blocks, locked until the transaction ends. */
  lockBlockedBy(orgId: string, issueId: string, m: Tx): Promise<Array<{ id: string }>> {
    return this.sql.rows<{ id: string }>(
      'SELECT id FROM issue_dependencies WHERE org_id = $1 AND blocking_issue_id = $2 ORDER BY created_at, id FOR UPDATE',
      [orgId, issueId],
      m,
    );
  }

  /** Board columns among `columnIds` that belong to project `projectId` (look-up of the projects module's board columns). */
  projectColumnsAmong(orgId: string, projectId: string, columnIds: string[], m?: Tx): Promise<Array<{ id: string }>> {
    return this.sql.rows<{ id: string }>(
      'SELECT id FROM board_columns WHERE org_id = $1 AND project_id = $2 AND id = ANY($3::uuid[])',
      [orgId, projectId, columnIds],
      m,
    );
  }

  /** One page of the dependency chain around `rootId` (CHAIN_SQL). */
  async chainPage(w: ChainWalk): Promise<ChainRow> {
    const row = await this.sql.row<ChainRow>(CHAIN_PAGE_SQL, [
      w.orgId,
      w.rootId,
      w.depth,
      w.upstream,
      w.downstream,
      w.allReadable,
      w.readableProjectIds,
      w.offset,
      w.limit,
    ]);
    return row!;
  }
}
