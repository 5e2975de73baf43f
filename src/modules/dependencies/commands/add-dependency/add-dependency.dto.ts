import { Allow } from 'class-validator';

/**
 * Exactly one of `blockedByIssueId` (that issue blocks this one) or `blockingIssueId` (this issue
 * blocks that one), camelCase or snake_case. Values are validated by the handler (400).
 */
export class AddDependencyDto {
  /** UUID of the issue that blocks this issue */
  @Allow() blockedByIssueId?: string;
  /** Alias of blockedByIssueId */
  @Allow() blocked_by_issue_id?: string;
  /** UUID of the issue this issue blocks */
  @Allow() blockingIssueId?: string;
  /** Alias of blockingIssueId */
  @Allow() blocking_issue_id?: string;
  /** Column of the blocking issue's project at which the dependency is released; default: its `done` column (or its last column) */
  @Allow() releaseColumnId?: string;
  /** Alias of releaseColumnId */
  @Allow() release_column_id?: string;
}
