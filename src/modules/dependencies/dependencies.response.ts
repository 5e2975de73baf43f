export class DependencyIssueProjection {
  id: string;
  number: number;
  /** Project key + '-' + number; null for a projectless issue */
  identifier: string | null;
  /** null for a projectless issue */
  projectSlug: string | null;
  title: string;
  status: string;
}

export class ReleaseColumnProjection {
  id: string;
  key: string;
  label: string;
  position: number;
  /** The project of the column (the blocking issue's project) */
  projectId: string;
}

export class DependencyEntry {
  /** Dependency id */
  id: string;
  createdAt: string;
  /** The other issue of the dependency; null when the caller cannot read it */
  issue: DependencyIssueProjection | null;
  /** Column of the blocking issue's project at which the dependency is released (null: legacy, released only by done/cancelled, or blocking issue not readable) */
  releaseColumnId: string | null;
  /** Alias of releaseColumnId */
  release_column_id: string | null;
  releaseColumn: ReleaseColumnProjection | null;
  /** Present only when the blocking issue is readable: it has reached the release column (or is done, cancelled or archived) */
  satisfied?: boolean;
}

export class DependencyRecord extends DependencyEntry {
  /** The issue that blocks */
  blocking_issue_id: string;
  /** The issue that is blocked */
  blocked_issue_id: string;
  created_at: string;
}

export class DependencyEnvelope {
  dependency: DependencyRecord;
}

export class DependencyLists {
  /** Dependencies in which this issue blocks another issue (entry.issue is the blocked issue) */
  blocking: DependencyEntry[];
  /** Dependencies in which another issue blocks this one (entry.issue is the blocking issue) */
  blockedBy: DependencyEntry[];
}

export class ChainNode {
  /** Readable nodes only */
  id?: string;
  number?: number;
  identifier?: string | null;
  projectSlug?: string | null;
  title?: string;
  status?: string;
  project_id?: string | null;
  /** `ready`, `blocked`, `complete` or `unknown` (readable nodes only) */
  readiness?: 'ready' | 'blocked' | 'complete' | 'unknown';
  /** Unreadable nodes only: true */
  restricted?: boolean;
  /** Unreadable nodes only: an opaque per-request token (not the issue id) */
  token?: string;
}

export class ChainReleaseCondition {
  column_id: string;
  key: string;
  label: string;
}

export class ChainEdge {
  /** Dependency id */
  id: string;
  /** The blocking node (issue id, or the restricted token) */
  from: string;
  /** The blocked node (issue id, or the restricted token) */
  to: string;
  from_readable: boolean;
  to_readable: boolean;
  /** Only when the blocking side is readable; null for legacy dependencies without release column */
  release_condition?: ChainReleaseCondition | null;
  /** Only when the blocking side is readable */
  satisfied?: boolean;
  /** `blocker_complete`, `release_column_reached`, `waiting_for_release_column`, `legacy_open_blocker` or `restricted` */
  reason: string;
}

export class ChainCounts {
  nodes: number;
  edges: number;
  readable_nodes: number;
  restricted_nodes: number;
  ready: number;
  blocked: number;
  complete: number;
  unknown: number;
}

export class ChainPage {
  limit: number;
  /** Opaque; pass as `cursor` for the next page; null on the last page */
  next_cursor: string | null;
  has_more: boolean;
}

export class DependencyChain {
  root_issue_id: string;
  direction: 'upstream' | 'downstream' | 'both';
  depth: number;
  nodes: ChainNode[];
  edges: ChainEdge[];
  /** Totals over the whole traversed graph */
  counts: ChainCounts;
  page: ChainPage;
}

export class SuccessResponse {
  success: boolean;
}
