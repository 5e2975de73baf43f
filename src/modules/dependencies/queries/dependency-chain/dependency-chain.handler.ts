import { createHmac } from 'node:crypto';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { HotSql } from '../../../../database/hot-sql.service';
import { ChainCursorCodec } from '../../chain-cursor';
import type { ChainCounts, ChainEdge, ChainNode, DependencyChain } from '../../dependencies.response';
import { ReadableIssues, toIssueProjection } from '../../dependency.reader';
import { DependencyRules } from '../../dependency-rules.service';
import { DependencyChainQuery } from './dependency-chain.query';

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

/** Walks "blocks" edges from the root: upstream follows blockers, downstream follows blocked issues. */
const WALK_SQL = (dir: 'upstream' | 'downstream'): string => {
  const [from, to] = dir === 'upstream' ? ['blocked_issue_id', 'blocking_issue_id'] : ['blocking_issue_id', 'blocked_issue_id'];
  return `WITH RECURSIVE walk(issue_id, depth) AS (
      SELECT $2::uuid, 0
      UNION
      SELECT d.${to}, w.depth + 1 FROM walk w JOIN issue_dependencies d ON d.org_id = $1 AND d.${from} = w.issue_id WHERE w.depth < $3
    )
    SELECT issue_id, min(depth)::int AS depth FROM walk GROUP BY issue_id`;
};

/**
 * The normalized dependency graph around a readable issue (read-only): one bounded recursive CTE
 * per direction, deduplicated nodes ordered by distance, edges delivered with the page on which
 * their later endpoint appears. Unreadable nodes are opaque per-request tokens; release
 * conditions and `satisfied` appear only when the blocking side is readable. Counts are totals
 * over the whole traversed graph.
 */
@QueryHandler(DependencyChainQuery)
export class DependencyChainHandler implements IQueryHandler<DependencyChainQuery, DependencyChain> {
  constructor(
    private readonly sql: HotSql,
    private readonly access: AccessPolicyService,
    private readonly rules: DependencyRules,
    private readonly cursors: ChainCursorCodec,
  ) {}

  async execute({ actor, issueId, params }: DependencyChainQuery): Promise<DependencyChain> {
    const rawDirection = str(params, 'direction') ?? 'both';
    if (!DIRECTIONS.includes(rawDirection as Direction)) throw Errors.validation('direction must be upstream, downstream or both');
    const direction = rawDirection as Direction;
    const depth = intParam(params, 'depth', 2, 1, 5);
    const limit = intParam(params, 'limit', 50, 1, 100);
    const cursor = str(params, 'cursor');
    const root = await this.access.assertIssueRead(actor, issueId);
    const offset = cursor === undefined ? 0 : this.cursors.decode(cursor, { root: root.id, direction, depth });
    const orgId = actor.orgId;

    // 1. Nodes (min distance from the root), one recursive CTE per direction.
    const dist = new Map<string, number>();
    const up = new Map<string, number>();
    const down = new Map<string, number>();
    const dirs = (['upstream', 'downstream'] as const).filter((d) => direction === 'both' || direction === d);
    const walked = await Promise.all(
      dirs.map((dir) => this.sql.prepared<{ issue_id: string; depth: number }>(WALK_SQL(dir), [orgId, root.id, depth])),
    );
    dirs.forEach((dir, k) => {
      const target = dir === 'upstream' ? up : down;
      for (const r of walked[k]) {
        target.set(r.issue_id, r.depth);
        dist.set(r.issue_id, Math.min(dist.get(r.issue_id) ?? Infinity, r.depth));
      }
    });
    const ids = [...dist.keys()];
    const upInner = new Set([...up].filter(([, d]) => d < depth).map(([id]) => id));
    const downInner = new Set([...down].filter(([, d]) => d < depth).map(([id]) => id));

    // 2. Node details, and every dependency blocking a node (for readiness); the traversed edges
    //    are among the latter (their blocked side is always a node).
    // The one definition of "satisfied" is evaluated once per distinct kind of dependency (release
    // column, blocker project, status, archived or not: a handful) instead of once per row.
    const sat = this.rules.satisfiedSql('k', 'k');
    // Named prepared statements. The blocking issue of each dependency is read by primary key
    // (LATERAL … OFFSET 0 keeps it a per-row index probe: joined, the planner prefers hashing a
    // sequential scan of the organization's issues for a few hundred nodes).
    const [issues, deps] = await Promise.all([
      this.sql.prepared<Record<string, any>>(
        `SELECT i.id, i.number, i.title, i.status, i.project_id, i.archived_at, p.key AS project_key, p.slug AS project_slug
           FROM issues i LEFT JOIN projects p ON p.org_id = i.org_id AND p.id = i.project_id
          WHERE i.org_id = $1 AND i.id = ANY($2::uuid[])`,
        [orgId, ids],
      ),
      this.sql.prepared<Record<string, any>>(
        `WITH dep AS MATERIALIZED (
           SELECT d.id, d.org_id, d.blocking_issue_id, d.blocked_issue_id, d.release_column_id, b.project_id, b.status, b.archived_at
             FROM issue_dependencies d
             CROSS JOIN LATERAL (SELECT b.project_id, b.status, b.archived_at FROM issues b
                                  WHERE b.org_id = d.org_id AND b.id = d.blocking_issue_id OFFSET 0) b
            WHERE d.org_id = $1 AND d.blocked_issue_id = ANY($2::uuid[])
         ), kinds AS MATERIALIZED (
           SELECT k.org_id, k.release_column_id, k.project_id, k.status, k.archived, ${sat} AS satisfied
             FROM (SELECT org_id, release_column_id, project_id, status, archived_at IS NOT NULL AS archived, min(archived_at) AS archived_at
                     FROM dep GROUP BY org_id, release_column_id, project_id, status, archived_at IS NOT NULL) k
         )
         SELECT d.id, d.blocking_issue_id, d.blocked_issue_id, d.release_column_id, rc.key AS rc_key, rc.label AS rc_label,
                d.project_id AS blocker_project_id, k.satisfied,
                (d.archived_at IS NOT NULL OR d.status IN ('done', 'cancelled')) AS blocker_complete
           FROM dep d
           JOIN kinds k ON k.org_id = d.org_id AND k.release_column_id IS NOT DISTINCT FROM d.release_column_id
                       AND k.project_id IS NOT DISTINCT FROM d.project_id AND k.status = d.status AND k.archived = (d.archived_at IS NOT NULL)
           LEFT JOIN board_columns rc ON rc.org_id = d.org_id AND rc.id = d.release_column_id AND rc.project_id = d.project_id
          ORDER BY d.id`,
        [orgId, ids],
      ),
    ]);
    const edgeRows = deps.filter(
      (e) => (upInner.has(e.blocked_issue_id) && up.has(e.blocking_issue_id)) || (downInner.has(e.blocking_issue_id) && down.has(e.blocked_issue_id)),
    );
    const readable = new ReadableIssues(this.access, actor);
    const info = new Map<string, { row: Record<string, any>; readable: boolean }>();
    for (const r of issues) info.set(r.id, { row: r, readable: await readable.canRead(r.project_id) });
    const blockersOf = new Map<string, Array<{ readable: boolean; satisfied: boolean }>>();
    for (const b of deps) {
      const list = blockersOf.get(b.blocked_issue_id) ?? [];
      list.push({ readable: await readable.canRead(b.blocker_project_id), satisfied: !!b.satisfied });
      blockersOf.set(b.blocked_issue_id, list);
    }

    // 3. Order, tokens, counts.
    const order = ids.filter((id) => info.has(id)).sort((a, b) => dist.get(a)! - dist.get(b)! || (a < b ? -1 : a > b ? 1 : 0));
    const index = new Map(order.map((id, i) => [id, i]));
    // Stable for this caller and chain (edges on later pages point at tokens of earlier pages), and
    // keyed by a server secret so a token reveals nothing about the issue behind it.
    const tokenKey = this.cursors.tokenKey(actor.memberId, issueId);
    const tokenOf = (id: string) => `r_${createHmac('sha256', tokenKey).update(id).digest('base64url').slice(0, 22)}`;
    const ref = (id: string) => (info.get(id)!.readable ? id : tokenOf(id));
    const counts: ChainCounts = { nodes: order.length, edges: 0, readable_nodes: 0, restricted_nodes: 0, ready: 0, blocked: 0, complete: 0, unknown: 0 };
    const nodeOf = (id: string): ChainNode => {
      const { row, readable: ok } = info.get(id)!;
      if (!ok) return { restricted: true, token: tokenOf(id) };
      let readiness: ChainNode['readiness'];
      const bl = blockersOf.get(id) ?? [];
      if (row.archived_at || row.status === 'done' || row.status === 'cancelled') readiness = 'complete';
      else if (bl.some((b) => b.readable && !b.satisfied)) readiness = 'blocked';
      else if (bl.some((b) => !b.readable)) readiness = 'unknown';
      else readiness = 'ready';
      return { ...toIssueProjection(row), project_id: row.project_id ?? null, readiness };
    };
    const allNodes = order.map(nodeOf);
    for (const n of allNodes) {
      if (n.restricted) counts.restricted_nodes++;
      else {
        counts.readable_nodes++;
        counts[n.readiness!]++;
      }
    }

    // 4. The page.
    const end = offset + limit;
    const nodes = allNodes.slice(offset, end);
    const edges: ChainEdge[] = [];
    for (const e of edgeRows) {
      const fi = index.get(e.blocking_issue_id);
      const ti = index.get(e.blocked_issue_id);
      if (fi === undefined || ti === undefined) continue;
      counts.edges++;
      const at = Math.max(fi, ti);
      if (at < offset || at >= end) continue;
      const fromReadable = info.get(e.blocking_issue_id)!.readable;
      const edge: ChainEdge = {
        id: e.id,
        from: ref(e.blocking_issue_id),
        to: ref(e.blocked_issue_id),
        from_readable: fromReadable,
        to_readable: info.get(e.blocked_issue_id)!.readable,
        reason: 'restricted',
      };
      if (fromReadable) {
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
      edges.push(edge);
    }
    const hasMore = end < order.length;
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
