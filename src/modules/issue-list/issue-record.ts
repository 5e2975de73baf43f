import { recurrenceResponse } from '../issues/recurrence.rules';
import type { CompactIssueRow, IssueRecordRow } from './issue-list.repository';
import type { CompactIssueResponse, IssueRecordResponse } from './issue-list.response';

const iso = (v: unknown): string | null => (v ? new Date(v as string).toISOString() : null);

/** Every assignee: the links, with the primary assignee first-class even without a link row. */
function assigneeIds(row: { assignee_id: string | null; assignee_ids: string[] | null }): string[] {
  const ids: string[] = Array.isArray(row.assignee_ids) ? row.assignee_ids : [];
  if (row.assignee_id && !ids.includes(row.assignee_id)) return [row.assignee_id, ...ids];
  return ids;
}

/** Recurrence fields through recurrenceResponse (issues/recurrence.rules.ts) (days in calendar order, never the cursor). */
function recurrenceFields(row: IssueRecordRow) {
  return recurrenceResponse({
    recurrenceType: row.recurrence_type ?? null,
    recurrenceInterval: row.recurrence_interval ?? null,
    recurrenceDays: Array.isArray(row.recurrence_days) ? row.recurrence_days : null,
    recurrenceMode: row.recurrence_mode ?? null,
    recurrenceTime: row.recurrence_time ?? null,
    recurrenceTimezone: row.recurrence_timezone ?? null,
    recurrenceNextRunAt: null,
  } as Parameters<typeof recurrenceResponse>[0]);
}

/** The full issue record of a list row. */
export function toIssueRecord(row: IssueRecordRow): IssueRecordResponse {
  return {
    id: row.id,
    number: row.number,
    identifier: row.project_id && row.project_key ? `${row.project_key}-${row.number}` : null,
    projectSlug: row.project_id ? (row.project_slug ?? null) : null,
    title: row.title,
    description: row.description ?? null,
    status: row.status,
    priority: Number(row.priority),
    project_id: row.project_id ?? null,
    assignee_id: row.assignee_id ?? null,
    assignee_ids: assigneeIds(row),
    team_id: row.team_id ?? null,
    milestone_id: row.milestone_id ?? null,
    parent_id: row.parent_id ?? null,
    start_date: row.start_date ?? null,
    due_date: row.due_date ?? null,
    ...recurrenceFields(row),
    label_ids: Array.isArray(row.label_ids) ? row.label_ids : [],
    created_by: row.created_by_member_id ?? null,
    archived: !!row.archived_at,
    archived_at: iso(row.archived_at),
    completed_at: iso(row.completed_at),
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}

/** The compact list item of a `view=board|list` row. */
export function toCompactIssue(row: CompactIssueRow): CompactIssueResponse {
  return {
    id: row.id,
    number: row.number,
    title: row.title,
    status: row.status,
    priority: Number(row.priority),
    project_id: row.project_id ?? null,
    assignee_id: row.assignee_id ?? null,
    assignee_ids: assigneeIds(row),
    due_date: row.due_date ?? null,
    milestone_id: row.milestone_id ?? null,
    updated_at: iso(row.updated_at)!,
  };
}

/** Full records of `ids`, in that order (ids without a row are skipped). */
export function toIssueRecordsInOrder(ids: string[], rows: IssueRecordRow[]): IssueRecordResponse[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.filter((id) => byId.has(id)).map((id) => toIssueRecord(byId.get(id)!));
}
