import { ApiAnyValue } from '../../common/openapi/decorators';
export class CommentAuthorResponse {
  /** Member id */
  id: string;
  display_name: string;
  /** `human` or `agent` */
  type: 'human' | 'agent';
  avatar_url: string | null;
}

export class MentionedMemberResponse {
  id: string;
  display_name: string;
  /** `human` or `agent` */
  type: 'human' | 'agent';
}

export class CommentSourceMetadataResponse {
  /** Agent harness name (e.g. `claude-code`) */
  harness?: string;
  thread_id?: string;
  session_id?: string;
  host_id?: string;
}

/** Shallow parent of a reply; kept after the parent was soft-deleted (then without its body). */
export class ReplyToCommentResponse {
  id: string;
  author_id: string | null;
  /** `member` or `automation` */
  author_type: 'member' | 'automation';
  /** The parent's sanitized HTML body; null once the parent was deleted */
  body: string | null;
  source_metadata: CommentSourceMetadataResponse | null;
  /** True when the parent comment was deleted */
  deleted: boolean;
  created_at: string;
}

export class CommentResponse {
  id: string;
  issue_id: string;
  /** Sanitized HTML */
  body: string;
  /** `member` or `automation` */
  author_type: 'member' | 'automation';
  /** Member id of the author; null for automation */
  author_id: string | null;
  /** Current projection of the author member; null for automation */
  author: CommentAuthorResponse | null;
  reply_to_comment_id: string | null;
  reply_to_comment: ReplyToCommentResponse | null;
  /** Agent routing provenance (`harness`, `thread_id`, `session_id`, `host_id`); null when none and for automation */
  source_metadata: CommentSourceMetadataResponse | null;
  /** Recipients of persisted mentions */
  mentioned_members: MentionedMemberResponse[];
  /** When the body was last edited; null when never */
  edited_at: string | null;
  created_at: string;
  updated_at: string;
}

export class CommentEnvelope {
  comment: CommentResponse;
}

/** Legacy list shape (default), oldest first; `shape=envelope` gives `{ resource, items, total, limit, offset, nextOffset, truncated, hint }` */
export class CommentListResponse {
  comments: CommentResponse[];
  total: number;
  limit: number;
  offset: number;
}

export class MentionSkipResponse {
  /** The requested member id as sent: a string, or the invalid value itself (`invalid_member_id`) */
  @ApiAnyValue()
  member_id: unknown;
  /** `invalid_member_id`, `not_found`, `self_mention`, `no_project_access`, `guest_unprojected_issue`, `unsupported_member_type` or `mentions_muted` */
  reason: string;
}

export class MentionOutcomeResponse {
  /** Distinct mentions requested (duplicates counted once) */
  requested: number;
  /** Mentions stored */
  created: number;
  skipped: MentionSkipResponse[];
}

/** The comment's durability, reported independently of mention and notification outcomes */
export class CommentPersistenceResponse {
  /** `persisted`: the comment is committed */
  status: 'persisted';
  /** Id of the created comment */
  comment_id: string;
}

export class CommentOutcomeResponse {
  mentions: MentionOutcomeResponse;
  persistence: CommentPersistenceResponse;
}

export class CommentCreatedResponse {
  comment: CommentResponse;
  /** Same as outcome.mentions (legacy alias) */
  mentions: MentionOutcomeResponse;
  outcome: CommentOutcomeResponse;
}

export class CommentsSuccessResponse {
  success: boolean;
}
