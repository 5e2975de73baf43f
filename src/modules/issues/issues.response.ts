import { CommentPersistenceResponse, MentionSkipResponse } from '../comments/comments.response';

/** Recurrence schedule summary: `{ type, interval, days }` (days in calendar order) */
export class IssueRecurrenceScheduleResponse {
  type: string;
  interval: number | null;
  days: string[];
}

/** The full issue record (create, detail, update and full list items). */
export class IssueResponse {
  id: string;
  /** Number in the project's sequence (or the organization's projectless sequence) */
  number: number;
  /** Project key + '-' + number (e.g. `WEB-12`); null for projectless issues */
  identifier: string | null;
  /** Slug of the project; null for projectless issues */
  projectSlug: string | null;
  title: string;
  /** Markdown or plain text */
  description: string | null;
  /** `backlog`, `todo`, `in_progress`, `done`, `cancelled` or a board column key of the project */
  status: string;
  /** 0 (urgent) .. 3 (low); default 2 */
  priority: number;
  project_id: string | null;
  /** Primary assignee: the first of assignee_ids */
  assignee_id: string | null;
  /** Every assignee, primary first */
  assignee_ids: string[];
  team_id: string | null;
  milestone_id: string | null;
  parent_id: string | null;
  /** YYYY-MM-DD */
  start_date: string | null;
  /** YYYY-MM-DD; drives the next generated recurring task */
  due_date: string | null;
  /** `daily`, `weekly`, `biweekly`, `monthly` or `custom` */
  recurrence_type: string | null;
  recurrence_interval: number | null;
  /** Weekdays `mon`..`sun` in calendar order */
  recurrence_days: string[] | null;
  /** `completion` or `schedule` */
  recurrence_materialization_mode: string | null;
  /** HH:MM local time (schedule mode) */
  recurrence_time: string | null;
  /** IANA time zone (schedule mode) */
  recurrence_timezone: string | null;
  recurrence_schedule: IssueRecurrenceScheduleResponse | null;
  label_ids: string[];
  /** Member id of the creator */
  created_by: string | null;
  archived: boolean;
  archived_at: string | null;
  completed_at: string | null;
  created_at: string;
  updated_at: string;
}

export class IssueMemberResponse {
  id: string;
  display_name: string;
  /** `human` or `agent` */
  type: string;
  avatar_url: string | null;
}

export class IssueLabelRefResponse {
  id: string;
  name: string;
  color: string | null;
}

export class IssueMilestoneRefResponse {
  id: string;
  name: string;
}

export class IssueSubTaskResponse {
  id: string;
  number: number;
  identifier: string | null;
  title: string;
  status: string;
}

/** Detail: the full record plus member objects, labels, milestone, sub-tasks and blocked state. */
export class IssueDetailResponse extends IssueResponse {
  creator: IssueMemberResponse | null;
  assignee: IssueMemberResponse | null;
  assignees: IssueMemberResponse[];
  labels: IssueLabelRefResponse[];
  /** Same as labels (spelling of older clients) */
  issue_labels: IssueLabelRefResponse[];
  milestone: IssueMilestoneRefResponse | null;
  sub_tasks: IssueSubTaskResponse[];
  /** True while an unsatisfied blocker exists */
  isBlocked: boolean;
  /** Only with `include=artifact_manifest`: the artifacts linked to the issue, without content */
  artifact_manifest?: ArtifactManifestEntryResponse[];
}

/** One artifact linked to an issue, as the opt-in manifest shows it (no content). */
export class ArtifactManifestEntryResponse {
  id: string;
  /** Same as id */
  artifact_id: string;
  /** `prd`, `implementation_plan`, `test_plan`, `decision`, `research` or `release_checklist` */
  type: string;
  title: string;
  current_revision_id: string;
  /** Number of the current revision */
  revision_number: number;
  created_at: string;
  updated_at: string;
}

export class IssueEnvelope {
  issue: IssueResponse;
}

export class IssueDetailEnvelope {
  issue: IssueDetailResponse;
}

export class IssueMentionsOutcomeResponse {
  requested: number;
  created: number;
  /** `[{ member_id, reason }]` */
  skipped: MentionSkipResponse[];
}

export class IssueUpdateOutcomeResponse {
  mentions: IssueMentionsOutcomeResponse;
  /** `{ status: 'persisted', comment_id }`: the comment is committed */
  persistence: CommentPersistenceResponse;
}

/** Update response; `comment`, `mentions` and `outcome` are present only when `comment_body` made a comment. */
export class IssueUpdateResponse {
  issue: IssueResponse;
  /** The comment created from `comment_body` (sanitized HTML) */
  comment?: Record<string, unknown>;
  mentions?: IssueMentionsOutcomeResponse;
  outcome?: IssueUpdateOutcomeResponse;
}

export class IssueBulkResponse {
  issues: IssueResponse[];
  count: number;
}

export class IssuesSuccessResponse {
  success: boolean;
}

/** Reference errors: `invalid_reference` (400), `reference_not_found` (404), `ambiguous_reference` (409) */
export class IssueReferenceErrorResponse {
  error: string;
  code: string;
  reference: string;
  /** 400 only */
  accepted_forms?: string[];
  /** 409 only: the readable candidates `{ id, identifier, title }` */
  candidates?: Array<Record<string, unknown>>;
}
