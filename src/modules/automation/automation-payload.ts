import type { IssueChangedEvent } from '../../common/events/domain-events';
import type { TriggerEvent } from './automation-rule.model';
import type { PayloadIssueRow } from './automation.repository';

/**
 * The schema version 3 body of an `automation.action` delivery (interface.md "Outbound webhook
 * delivery"): the current tenant-scoped issue and project fields, the trigger with the sorted
 * names of the changed fields (only `title`, `status`, `priority`, `assigneeId`, `projectId`; no
 * before/after values), and the rule. Never descriptions, comment bodies or raw changes; the
 * delivery id travels in headers. `artifacts` is the count of the issue's direct artifact links
 * (same organization), omitted when the count is not an integer or exceeds the bounded 1,000.
 */
export const AUTOMATION_SCHEMA_VERSION = 3;

const PUBLIC_CHANGED_FIELD: Record<string, string> = {
  title: 'title',
  status: 'status',
  priority: 'priority',
  assignee_id: 'assigneeId',
  assignee_ids: 'assigneeId',
  project_id: 'projectId',
};

export const publicChangedFields = (changedFields: string[]): string[] =>
  [...new Set(changedFields.map((f) => PUBLIC_CHANGED_FIELD[f]).filter((f): f is string => !!f))].sort();

export function buildAutomationPayload(
  i: PayloadIssueRow | undefined,
  e: IssueChangedEvent,
  trigger: TriggerEvent,
  rule: { id: string; name: string },
): Record<string, unknown> {
  const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);
  return {
    event: 'automation.action',
    schema_version: AUTOMATION_SCHEMA_VERSION,
    occurred_at: e.at.toISOString(),
    organization_id: e.orgId,
    rule: { id: rule.id, name: rule.name },
    trigger: { event: trigger, changedFields: publicChangedFields(e.changedFields) },
    project: i?.project_id ? { id: i.project_id, key: i.project_key, name: i.project_name, slug: i.project_slug } : null,
    issue: i
      ? {
          id: i.id,
          number: i.number,
          identifier: i.project_key ? `${i.project_key}-${i.number}` : null,
          title: i.title,
          status: i.status,
          priority: i.priority,
          project_id: i.project_id,
          assignee_id: i.assignee_ids[0] ?? null,
          assignee_ids: i.assignee_ids,
          due_date: i.due_date,
          archived: i.archived_at !== null,
          created_at: iso(i.created_at),
          updated_at: iso(i.updated_at),
        }
      : null,
    ...(i && Number.isInteger(i.artifacts) && i.artifacts <= 1000 ? { artifacts: i.artifacts } : {}),
  };
}
