/** Recurrence schedule summary: `{ type, interval, days }` */
export class RecurrenceScheduleResponse {
  type: string;
  interval: number;
  /** Weekdays `mon`..`sun` in calendar order (empty unless weekly schedule) */
  days: string[];
}

/** The full issue record (list items without `view`, subtask responses). */
export class IssueRecordResponse {
  id: string;
  /** Number inside the project (or among the organization's projectless issues) */
  number: number;
  /** Project key + '-' + number (e.g. `WEB-12`); null for projectless issues */
  identifier: string | null;
  /** Slug of the issue's project; null for projectless issues */
  projectSlug: string | null;
  title: string;
  /** Markdown description, or null */
  description: string | null;
  /** `backlog`, `todo`, `in_progress`, `done`, `cancelled` or a custom column key */
  status: string;
  /** 0..3 */
  priority: number;
  project_id: string | null;
  /** Primary assignee (member id), or null */
  assignee_id: string | null;
  /** Every assignee (member ids) */
  assignee_ids: string[];
  team_id: string | null;
  milestone_id: string | null;
  /** Parent issue of a subtask, or null */
  parent_id: string | null;
  /** YYYY-MM-DD */
  start_date: string | null;
  /** YYYY-MM-DD */
  due_date: string | null;
  recurrence_type: string | null;
  recurrence_interval: number | null;
  /** Weekdays in calendar order */
  recurrence_days: string[] | null;
  /** `completion` or `schedule` */
  recurrence_materialization_mode: string | null;
  /** HH:MM */
  recurrence_time: string | null;
  /** IANA timezone */
  recurrence_timezone: string | null;
  recurrence_schedule: RecurrenceScheduleResponse | null;
  label_ids: string[];
  /** Member id of the creator */
  created_by: string | null;
  archived: boolean;
  archived_at: string | null;
  completed_at: string | null;
  created_at: string;
  updated_at: string;
}

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
  issues: IssueRecordResponse[];
  total: number;
  /** The effective page size (values above 100 are clamped) */
  limit: number;
  offset: number;
}
