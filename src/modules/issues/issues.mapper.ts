import type { IssueEntity } from './entities/issue.entity';
import type { IssueResponse } from './issues.response';

/** What the issue row alone does not hold: project key and slug, assignees (primary first), labels. */
export interface IssueExtras {
  projectKey: string | null;
  projectSlug: string | null;
  assigneeIds: string[];
  labelIds: string[];
}

const iso = (d: Date | string | null): string | null => (d === null || d === undefined ? null : new Date(d).toISOString());

/** The full issue record (snake_case); `recurrence` is `recurrenceResponse(issue)` (recurrence.rules.ts). */
export function toIssueResponse(i: IssueEntity, x: IssueExtras, recurrence: Record<string, unknown>): IssueResponse {
  return {
    id: i.id,
    number: i.number,
    identifier: i.projectId && x.projectKey ? `${x.projectKey}-${i.number}` : null,
    projectSlug: i.projectId ? x.projectSlug : null,
    title: i.title,
    description: i.description,
    status: i.status,
    priority: i.priority,
    project_id: i.projectId,
    assignee_id: i.assigneeId,
    assignee_ids: x.assigneeIds,
    team_id: i.teamId,
    milestone_id: i.milestoneId,
    parent_id: i.parentId,
    start_date: i.startDate,
    due_date: i.dueDate,
    ...(recurrence as Pick<
      IssueResponse,
      | 'recurrence_type'
      | 'recurrence_interval'
      | 'recurrence_days'
      | 'recurrence_materialization_mode'
      | 'recurrence_time'
      | 'recurrence_timezone'
      | 'recurrence_schedule'
    >),
    label_ids: x.labelIds,
    created_by: i.createdByMemberId,
    archived: i.archivedAt !== null,
    archived_at: iso(i.archivedAt),
    completed_at: iso(i.completedAt),
    created_at: iso(i.createdAt)!,
    updated_at: iso(i.updatedAt)!,
  };
}
