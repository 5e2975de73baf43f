import { CreateIssueDto } from '../create-issue/create-issue.dto';
import { Alias, AliasesIn } from '../../../../common/http/aliases';

/** One `dependencyReleaseMappings` item. */
export class DependencyReleaseMappingDto {
  /** A dependency in which this issue blocks another */
  @Alias('dependency_id') dependencyId: string;
  /** Column of the issue's new project at which that dependency is released */
  @Alias('release_column_id') releaseColumnId: string;
}

/**
 * Issue update: every create field except `labelIds` (400: use the label endpoints). Unknown
 * properties, read-only ones of the response included (`id`, `number`, `org_id`, …), are a 400
 * naming each (the validation pipe).
 */
export class UpdateIssueDto extends CreateIssueDto {
  /** Comment created with the update in the same transaction (Markdown/plain text or rich-text HTML; stored sanitized) */
  @Alias('commentBody') comment_body?: string;
  /** Mentions for the comment: `[{ member_id }]` (organization member ids) */
  @Alias('commentMentions') comment_mentions?: Array<{ member_id: string }>;
  /** Source metadata of the comment */
  @Alias('commentSourceMetadata') comment_source_metadata?: Record<string, unknown>;
  /** On a project change of an issue that blocks others: `[{ dependencyId, releaseColumnId }]` (columns of the new project) */
  @AliasesIn(() => DependencyReleaseMappingDto, 'dependency_release_mappings', 'releaseColumnMappings')
  dependencyReleaseMappings?: DependencyReleaseMappingDto[];
}
