export class ActivityActorResponse {
  /** Member id */
  id: string;
  display_name: string;
  /** `human` or `agent` */
  type: 'human' | 'agent';
  avatar_url: string | null;
}

export class ActivityEventResponse {
  id: string;
  /** e.g. `issue.created`, `issue.updated`, `comment.created`, `label.added`, `dependency.added` */
  action: string;
  issue_id: string | null;
  /** Project of the issue when the event happened (null when projectless) */
  project_id: string | null;
  /** Member id of the actor; null for automation */
  actor_id: string | null;
  /** Current projection of the actor member; null for automation */
  actor: ActivityActorResponse | null;
  /**
   * Safe details (ids, changed field names; never comment bodies). `metadata.actor` is the immutable
   * event-time snapshot { id, display_name, type, avatar_url }, or { display_name: 'Automation', type: 'automation' }.
   */
  metadata: Record<string, unknown>;
  created_at: string;
}

export class OrgActivityResponse {
  /** Newest first */
  data: ActivityEventResponse[];
  /** The caller's member id */
  currentMemberId: string;
  limit: number;
  offset: number;
  /** True when more events follow this page */
  hasMore: boolean;
}

export class IssueActivityResponse {
  /** Newest first */
  data: ActivityEventResponse[];
  /** Same array as data */
  items: ActivityEventResponse[];
  limit: number;
  offset: number;
  hasMore: boolean;
}
