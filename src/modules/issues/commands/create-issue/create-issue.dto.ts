import { Allow } from 'class-validator';

/**
 * Issue fields (create, each bulk item). camelCase with snake_case aliases; every field is checked
 * by the issue input rules (clear 400 messages).
 */
export class CreateIssueDto {
  /** Required, trimmed, 1..500 characters */
  @Allow() title?: string;
  /** Markdown or plain text, at most 100000 characters */
  @Allow() description?: string | null;
  /** `backlog` (default), `todo`, `in_progress`, `done`, `cancelled` or a board column key of the project */
  @Allow() status?: string;
  /** Integer 0..3 (default 2) */
  @Allow() priority?: number;
  /** Single assignee (member id); must be an active member who can read the project */
  @Allow() assigneeId?: string | null;
  /** Alias of assigneeId */
  @Allow() assignee_id?: string | null;
  /** Assignees (member ids), primary first */
  @Allow() assigneeIds?: string[];
  /** Alias of assigneeIds */
  @Allow() assignee_ids?: string[];
  /** Target project (needs edit or admin access there); omit or null for a projectless issue (non-guests) */
  @Allow() projectId?: string | null;
  /** Alias of projectId */
  @Allow() project_id?: string | null;
  /** Milestone of the same project */
  @Allow() milestoneId?: string | null;
  /** Alias of milestoneId */
  @Allow() milestone_id?: string | null;
  /** Team of the organization */
  @Allow() teamId?: string | null;
  /** Alias of teamId */
  @Allow() team_id?: string | null;
  /** YYYY-MM-DD, not after dueDate */
  @Allow() startDate?: string | null;
  /** Alias of startDate */
  @Allow() start_date?: string | null;
  /** YYYY-MM-DD; drives the next generated recurring task */
  @Allow() dueDate?: string | null;
  /** Alias of dueDate */
  @Allow() due_date?: string | null;
  /** Labels of the organization (create and bulk create only) */
  @Allow() labelIds?: string[];
  /** Alias of labelIds */
  @Allow() label_ids?: string[];
  /** `daily`, `weekly`, `biweekly`, `monthly` or `custom` */
  @Allow() recurrenceType?: string | null;
  /** Alias of recurrenceType */
  @Allow() recurrence_type?: string | null;
  /** Positive integer (schedule mode: at most 10000) */
  @Allow() recurrenceInterval?: number | null;
  /** Alias of recurrenceInterval */
  @Allow() recurrence_interval?: number | null;
  /** Unique weekdays `mon`..`sun` (weekly schedule mode only) */
  @Allow() recurrenceDays?: string[] | null;
  /** Alias of recurrenceDays */
  @Allow() recurrence_days?: string[] | null;
  /** `completion` (default) or `schedule` */
  @Allow() recurrenceMaterializationMode?: string | null;
  /** Alias of recurrenceMaterializationMode */
  @Allow() recurrence_materialization_mode?: string | null;
  /** HH:MM local time (schedule mode) */
  @Allow() recurrenceTime?: string | null;
  /** Alias of recurrenceTime */
  @Allow() recurrence_time?: string | null;
  /** IANA time zone (schedule mode) */
  @Allow() recurrenceTimezone?: string | null;
  /** Alias of recurrenceTimezone */
  @Allow() recurrence_timezone?: string | null;
}
