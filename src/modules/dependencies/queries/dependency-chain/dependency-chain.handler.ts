import { createHmac } from 'node:crypto';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { ChainCursorCodec } from '../../chain-cursor';
import type { ChainCounts, ChainEdge, ChainNode, DependencyChain } from '../../dependencies.response';
import { toIssueProjection } from '../../dependency.reader';
import { DependenciesRepository } from '../../dependencies.repository';
import { DependencyChainQuery } from './dependency-chain.query';
import { DEPENDENCY_CHAIN, ReadModels } from '../../../../common/cache/read-models';

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
 * The normalized dependency graph around a readable issue (read-only), computed by one statement
 * (DependenciesRepository.chainPage): deduplicated nodes ordered by distance, edges delivered with the page on which their
 * later endpoint appears. Unreadable nodes are opaque per-caller tokens; release conditions and
 * `satisfied` appear only when the blocking side is readable. Counts are totals over the whole
 * traversed graph; only the page's nodes and edges are read in detail and sent to Node.js.
 */
@QueryHandler(DependencyChainQuery)
export class DependencyChainHandler implements IQueryHandler<DependencyChainQuery, DependencyChain> {
  constructor(
    private readonly dependencies: DependenciesRepository,
    private readonly access: AccessPolicyService,
    private readonly cursors: ChainCursorCodec,
    private readonly readModels: ReadModels,
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
    // Readability as the access policy decides it for this caller: with an organization-wide
    // baseline every project and projectless issues; otherwise the explicitly granted projects.
    const readableProjects = await this.access.readableProjects(actor);
    const all = readableProjects === 'all';
    const readable = all ? [] : [...readableProjects].sort();
    // The page's rows depend only on the graph (versioned per organization by triggers), the walk
    // and the caller's readable projects: a kept result of the same version is the same answer.
    // The root's own row is in the key too: an issue without dependencies moves no graph version.
    const key = JSON.stringify([
      root.id,
      root.number,
      root.title,
      root.status,
      root.archivedAt,
      root.projectId,
      depth,
      direction,
      all,
      readable,
      offset,
      limit,
    ]);
    const compute = () =>
      this.dependencies.chainPage({
        orgId: actor.orgId,
        rootId: root.id,
        depth,
        upstream: direction !== 'downstream',
        downstream: direction !== 'upstream',
        allReadable: all,
        readableProjectIds: readable,
        offset,
        limit,
      });
    const row = await this.readModels.serve(DEPENDENCY_CHAIN, actor.orgId, key, compute);

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
        edge.release_condition = e.rc_key != null ? { column_id: e.release_column_id!, key: e.rc_key, label: e.rc_label! } : null;
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
