import { Allow } from 'class-validator';
import { Alias } from '../../../../common/http/aliases';

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
  @Alias('assignee_id') assigneeId?: string | null;
  /** Assignees (member ids), primary first */
  @Alias('assignee_ids') assigneeIds?: string[];
  /** Target project (needs edit or admin access there); omit or null for a projectless issue (non-guests) */
  @Alias('project_id') projectId?: string | null;
  /** Milestone of the same project */
  @Alias('milestone_id') milestoneId?: string | null;
  /** Team of the organization */
  @Alias('team_id') teamId?: string | null;
  /** YYYY-MM-DD, not after dueDate */
  @Alias('start_date') startDate?: string | null;
  /** YYYY-MM-DD; drives the next generated recurring task */
  @Alias('due_date') dueDate?: string | null;
  /** Issue template (create and bulk create only): its content becomes the description unless `description` is given; an organization-wide template or one of the issue's project */
  @Alias('template_id') templateId?: string;
  /** Labels of the organization (create and bulk create only) */
  @Alias('label_ids') labelIds?: string[];
  /** `daily`, `weekly`, `biweekly`, `monthly` or `custom` */
  @Alias('recurrence_type') recurrenceType?: string | null;
  /** Positive integer (schedule mode: at most 10000) */
  @Alias('recurrence_interval') recurrenceInterval?: number | null;
  /** Unique weekdays `mon`..`sun` (weekly schedule mode only) */
  @Alias('recurrence_days') recurrenceDays?: string[] | null;
  /** `completion` (default) or `schedule` */
  @Alias('recurrence_materialization_mode') recurrenceMaterializationMode?: string | null;
  /** HH:MM local time (schedule mode) */
  @Alias('recurrence_time') recurrenceTime?: string | null;
  /** IANA time zone (schedule mode) */
  @Alias('recurrence_timezone') recurrenceTimezone?: string | null;
}
