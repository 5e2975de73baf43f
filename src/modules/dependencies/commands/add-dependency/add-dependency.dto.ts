import { Alias } from '../../../../common/http/aliases';

/**
 * Exactly one of `blockedByIssueId` (that issue blocks this one) or `blockingIssueId` (this issue
 * blocks that one), camelCase or snake_case. Values are validated by the handler (400).
 */
export class AddDependencyDto {
  /** UUID of the issue that blocks this issue */
  @Alias('blocked_by_issue_id') blockedByIssueId?: string;
  /** UUID of the issue this issue blocks */
  @Alias('blocking_issue_id') blockingIssueId?: string;
  /** Column of the blocking issue's project at which the dependency is released; default: its `done` column (or its last column) */
  @Alias('release_column_id') releaseColumnId?: string;
}
