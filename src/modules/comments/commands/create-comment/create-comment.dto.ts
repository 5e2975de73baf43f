import { Allow } from 'class-validator';
import { Alias } from '../../../../common/http/aliases';

export class MentionInputDto {
  /** Stable organization member id (not a user id or display name) */
  member_id: string;
}

export class SourceMetadataInputDto {
  harness?: string;
  thread_id?: string;
  session_id?: string;
  /** Optional host id */
  host_id?: string;
}

/** Body values are validated by the comment writer (so errors name the field the caller sent). */
export class CreateCommentDto {
  /**
   * Markdown/plain text or rich-text HTML (at most 100000 characters); stored and returned as
   * sanitized HTML. A body with no visible text or safe media is rejected (`body is required`).
   */
  @Allow()
  body: string;

  /** Members to mention (at most 50; duplicates counted once) */
  @Allow()
  mentions?: MentionInputDto[];

  /** A comment of the same issue this one replies to */
  @Allow()
  @Alias('replyToCommentId')
  reply_to_comment_id?: string | null;

  /** Agents only: routing provenance with only `harness`, `thread_id`, `session_id`, `host_id` (strings, at most 200 characters) */
  @Allow()
  @Alias('sourceMetadata')
  source_metadata?: SourceMetadataInputDto | null;
}
