import { IssueResponse } from '../issues/issues.response';

/** The full issue record (list items without `view`, subtask responses): the one issue response class. */
export { IssueResponse as IssueRecordResponse };

/** Compact list item of `view=board` / `view=list` (no identifier, no projectSlug). */
export class CompactIssueResponse {
  id: string;
  number: number;
  title: string;
  status: string;
  priority: number;
  project_id: string | null;
  assignee_id: string | null;
  assignee_ids: string[];
  /** YYYY-MM-DD */
  due_date: string | null;
  milestone_id: string | null;
  updated_at: string;
}

/**
 * Legacy list shape (default). With `shape=envelope` (or `response_shape=cli`) the body is
 * `{ resource: 'issues', items, total, limit, offset, nextOffset, truncated, hint }`. With
 * `view=board|list` the items are CompactIssueResponse.
 */
export class IssueListResponse {
  issues: IssueResponse[];
  total: number;
  /** The effective page size (values above 100 are clamped) */
  limit: number;
  offset: number;
}

/** Legacy list shape of the compact views (`view=board|list`). */
export class CompactIssueListResponse {
  issues: CompactIssueResponse[];
  total: number;
  /** The effective page size (values above 100 are clamped) */
  limit: number;
  offset: number;
}
