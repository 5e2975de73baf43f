import { Allow } from 'class-validator';
import { CreateIssueDto } from '../create-issue/create-issue.dto';

/**
 * Issue update: every create field except `labelIds` (400: use the label endpoints). Unknown and
 * immutable properties (`id`, `number`, `org_id`, …) are ignored.
 */
export class UpdateIssueDto extends CreateIssueDto {
  /** Comment created with the update in the same transaction (Markdown/plain text or rich-text HTML; stored sanitized) */
  @Allow() comment_body?: string;
  /** Alias of comment_body */
  @Allow() commentBody?: string;
  /** Mentions for the comment: `[{ member_id }]` (organization member ids) */
  @Allow() comment_mentions?: Array<{ member_id: string }>;
  /** Alias of comment_mentions */
  @Allow() commentMentions?: Array<{ member_id: string }>;
  /** Source metadata of the comment */
  @Allow() comment_source_metadata?: Record<string, unknown>;
  /** Alias of comment_source_metadata */
  @Allow() commentSourceMetadata?: Record<string, unknown>;
  /** On a project change of an issue that blocks others: `[{ dependencyId, releaseColumnId }]` (columns of the new project) */
  @Allow() dependencyReleaseMappings?: Array<{ dependencyId: string; releaseColumnId: string }>;
  /** Alias of dependencyReleaseMappings (items may use `dependency_id`, `release_column_id`) */
  @Allow() dependency_release_mappings?: Array<{ dependency_id: string; release_column_id: string }>;
  /** Alias of dependencyReleaseMappings */
  @Allow() releaseColumnMappings?: Array<{ dependencyId: string; releaseColumnId: string }>;
}
