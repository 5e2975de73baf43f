import { createHmac } from 'node:crypto';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { Sql } from '../../../../database/sql.service';
import { ChainCursorCodec } from '../../chain-cursor';
import type { ChainCounts, ChainEdge, ChainNode, DependencyChain } from '../../dependencies.response';
import { toIssueProjection } from '../../dependency.reader';
import { DependencyRules } from '../../dependency-rules.service';
import { DependencyChainQuery } from './dependency-chain.query';
import { DataVersions } from '../../../../common/cache/data-versions.service';
import { VersionedCache } from '../../../../common/cache/versioned-cache';

const CHAIN_CACHE_ENTRIES = 2000;

type Direction = 'upstream' | 'downstream' | 'both';
const DIRECTIONS: readonly Direction[] = ['upstream', 'downstream', 'both'];

function str(params: Record<string, unknown>, name: string): string | undefined {
  const v = params[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw Errors.validation(`${name} must be given once`);
  return v;
}

function intParam(params: Record<string, unknown>, name: string, dflt: number, min: number, max: number): number {
  const v = str(params, name);
  if (v === undefined) return dflt;
  const n = /^\d{1,4}$/.test(v) ? Number(v) : NaN;
  if (!Number.isInteger(n) || n < min || n > max) throw Errors.validation(`${name} must be an integer from ${min} to ${max}`);
  return n;
}

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

/**
 * The normalized dependency graph around a readable issue (read-only), computed by one statement
 * (CHAIN_SQL): deduplicated nodes ordered by distance, edges delivered with the page on which their
 * later endpoint appears. Unreadable nodes are opaque per-caller tokens; release conditions and
 * `satisfied` appear only when the blocking side is readable. Counts are totals over the whole
 * traversed graph; only the page's nodes and edges are read in detail and sent to Node.js.
 */
type ChainRow = { counts: Omit<ChainCounts, 'edges'>; edge_count: number; nodes: Array<Record<string, any>>; edges: Array<Record<string, any>> };

@QueryHandler(DependencyChainQuery)
export class DependencyChainHandler implements IQueryHandler<DependencyChainQuery, DependencyChain> {
  private readonly chainSql: string;
  /** Computed pages of this process (bounded), trusted only at the graph version they were read at. */
  private readonly pages = new VersionedCache<ChainRow>(CHAIN_CACHE_ENTRIES);

  constructor(
    private readonly sql: Sql,
    private readonly access: AccessPolicyService,
    rules: DependencyRules,
    private readonly cursors: ChainCursorCodec,
    private readonly versions: DataVersions,
  ) {
    this.chainSql = CHAIN_SQL(rules.satisfiedByColumnsSql('d', 'rc', 'sc'));
  }

  async execute({ actor, issueId, params }: DependencyChainQuery): Promise<DependencyChain> {
    const rawDirection = str(params, 'direction') ?? 'both';
    if (!DIRECTIONS.includes(rawDirection as Direction)) throw Errors.validation('direction must be upstream, downstream or both');
    const direction = rawDirection as Direction;
    const depth = intParam(params, 'depth', 2, 1, 5);
    const limit = intParam(params, 'limit', 50, 1, 100);
    const cursor = str(params, 'cursor');
    const root = await this.access.assertIssueRead(actor, issueId);
    const offset = cursor === undefined ? 0 : this.cursors.decode(cursor, { root: root.id, direction, depth });
    // Readability as the access policy decides it for this caller: with an organization-wide
    // baseline every project and projectless issues; otherwise the explicitly granted projects.
    const readableProjects = await this.access.readableProjects(actor);
    const all = readableProjects === 'all';
    const readable = all ? [] : [...readableProjects].sort();
    // The page's rows depend only on the graph (versioned per organization by triggers), the walk
    // and the caller's readable projects: a kept result of the same version is the same answer.
    const version = await this.versions.dependencyGraph(actor.orgId);
    const key = JSON.stringify([actor.orgId, root.id, depth, direction, all, readable, offset, limit]);
    const compute = async () =>
      (await this.sql.prepared<ChainRow>(this.chainSql, [actor.orgId, root.id, depth, direction !== 'downstream', direction !== 'upstream', all, readable, offset, limit]))[0];
    const row = version === null ? await compute() : await this.pages.through(key, version, compute);

    // Stable for this caller and chain (edges on later pages point at tokens of earlier pages), and
    // keyed by a server secret so a token reveals nothing about the issue behind it.
    const tokenKey = this.cursors.tokenKey(actor.memberId, issueId);
    const tokenOf = (id: string) => `r_${createHmac('sha256', tokenKey).update(id).digest('base64url').slice(0, 22)}`;
    const counts: ChainCounts = { ...row.counts, edges: row.edge_count };
    const nodes: ChainNode[] = row.nodes.map((n) =>
      n.readable ? { ...toIssueProjection(n), project_id: n.project_id ?? null, readiness: n.readiness } : { restricted: true, token: tokenOf(n.id) },
    );
    const edges: ChainEdge[] = row.edges.map((e) => {
      const edge: ChainEdge = {
        id: e.id,
        from: e.from_readable ? e.from : tokenOf(e.from),
        to: e.to_readable ? e.to : tokenOf(e.to),
        from_readable: e.from_readable,
        to_readable: e.to_readable,
        reason: 'restricted',
      };
      if (e.from_readable) {
        edge.release_condition = e.rc_key != null ? { column_id: e.release_column_id, key: e.rc_key, label: e.rc_label } : null;
        edge.satisfied = !!e.satisfied;
        edge.reason = e.blocker_complete
          ? 'blocker_complete'
          : e.satisfied
            ? 'release_column_reached'
            : e.rc_key != null
              ? 'waiting_for_release_column'
              : 'legacy_open_blocker';
      }
      return edge;
    });
    const end = offset + limit;
    const hasMore = end < counts.nodes;
    return {
      root_issue_id: root.id,
      direction,
      depth,
      nodes,
      edges,
      counts,
      page: { limit, next_cursor: hasMore ? this.cursors.encode({ root: root.id, direction, depth, offset: end }) : null, has_more: hasMore },
    };
  }
}
