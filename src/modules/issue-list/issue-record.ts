import type { EntityManager } from 'typeorm';
import { recurrenceResponse } from '../recurrence/recurrence.rules';
import type { CompactIssueResponse, IssueRecordResponse } from './issue-list.response';

/**
 * The full issue record (list items, subtask responses) read straight from SQL: one statement
 * for any number of issues, assignee and label ids aggregated per row (no N+1). The caller
 * supplies the source of `i` (the issues table or a page sub-select) and the join to projects.
 */
export const FULL_COLUMNS = `
  i.id, i.number, i.title, i.description, i.status, i.priority, i.project_id,
  p.key AS project_key, p.slug AS project_slug,
  i.assignee_id, i.team_id, i.milestone_id, i.parent_id,
  to_char(i.start_date, 'YYYY-MM-DD') AS start_date, to_char(i.due_date, 'YYYY-MM-DD') AS due_date,
  i.recurrence_type, i.recurrence_interval, i.recurrence_days::text[] AS recurrence_days, i.recurrence_mode,
  i.recurrence_time, i.recurrence_timezone,
  i.created_by_member_id, i.archived_at, i.completed_at, i.created_at, i.updated_at,
  ARRAY(SELECT a.member_id::text FROM issue_assignees a WHERE a.org_id = i.org_id AND a.issue_id = i.id
        ORDER BY a.position, a.created_at, a.member_id) AS assignee_ids,
  ARRAY(SELECT l.label_id::text FROM issue_labels l WHERE l.org_id = i.org_id AND l.issue_id = i.id
        ORDER BY l.created_at, l.label_id) AS label_ids`;

/** The compact projection of `view=board|list` (no project join, no labels). */
export const COMPACT_COLUMNS = `
  i.id, i.number, i.title, i.status, i.priority, i.project_id, i.assignee_id,
  to_char(i.due_date, 'YYYY-MM-DD') AS due_date, i.milestone_id, i.updated_at,
  ARRAY(SELECT a.member_id::text FROM issue_assignees a WHERE a.org_id = i.org_id AND a.issue_id = i.id
        ORDER BY a.position, a.created_at, a.member_id) AS assignee_ids`;

export const PROJECT_JOIN = 'LEFT JOIN projects p ON p.org_id = i.org_id AND p.id = i.project_id';

const iso = (v: unknown): string | null => (v ? new Date(v as string).toISOString() : null);

/** Every assignee: the links, with the primary assignee first-class even without a link row. */
function assigneeIds(row: Record<string, any>): string[] {
  const ids: string[] = Array.isArray(row.assignee_ids) ? row.assignee_ids : [];
  if (row.assignee_id && !ids.includes(row.assignee_id)) return [row.assignee_id, ...ids];
  return ids;
}

/** Recurrence fields through part E's recurrenceResponse (days in calendar order, never the cursor). */
function recurrenceFields(row: Record<string, any>) {
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

export function toIssueRecord(row: Record<string, any>): IssueRecordResponse {
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

export function toCompactIssue(row: Record<string, any>): CompactIssueResponse {
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

/** Full records of the given issues of one organization, in the order of `ids` (missing ones skipped). */
export async function loadIssueRecords(m: EntityManager, orgId: string, ids: string[]): Promise<IssueRecordResponse[]> {
  if (!ids.length) return [];
  const rows: Array<Record<string, any>> = await m.query(
    `SELECT ${FULL_COLUMNS} FROM issues i ${PROJECT_JOIN} WHERE i.org_id = $1 AND i.id = ANY($2::uuid[])`,
    [orgId, ids],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.filter((id) => byId.has(id)).map((id) => toIssueRecord(byId.get(id)!));
}
