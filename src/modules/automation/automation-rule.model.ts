import type { IssueChangedEvent, IssueFacts } from '../../common/events/domain-events';

/**
 * The closed vocabulary of automation rules (interface.md leaves the full sets open; this is ours,
 * see docs/DECISIONS.md "Automation"): trigger events, condition fields and operators, and
 * action types, plus the pure parts of a rule: which triggers an issue change fires and whether a
 * rule's conditions match an issue.
 */
export const TRIGGER_EVENTS = ['issue.created', 'issue.status_changed', 'issue.assigned', 'issue.priority_changed', 'issue.updated'] as const;
export type TriggerEvent = (typeof TRIGGER_EVENTS)[number];

export const CONDITION_FIELDS = ['status', 'priority', 'assignee_id', 'project_id', 'title'] as const;
export type ConditionField = (typeof CONDITION_FIELDS)[number];
export const CONDITION_OPERATORS = ['eq', 'neq', 'in', 'not_in', 'contains'] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

export const ACTION_TYPES = ['set_status', 'set_assignee', 'set_priority', 'add_label', 'post_comment', 'close_issue', 'send_webhook'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

export type ConditionValue = string | number | null;
export interface Condition {
  field: ConditionField;
  operator: ConditionOperator;
  value: ConditionValue | ConditionValue[];
}

export type Action =
  | { type: 'set_status'; value: string }
  | { type: 'set_assignee'; value: string | null }
  | { type: 'set_priority'; value: number }
  | { type: 'add_label'; value: string }
  | { type: 'post_comment'; value: string }
  | { type: 'close_issue' }
  | { type: 'send_webhook'; webhook_id: string };

export interface RuleDefinition {
  name: string;
  triggerEvent: TriggerEvent;
  conditions: Condition[];
  actions: Action[];
  enabled: boolean;
  projectId: string | null;
}

/** The issue fields conditions read (from the event's facts or a dry run's issue). */
export interface ConditionSubject {
  status: string;
  priority: number;
  assigneeId: string | null;
  projectId: string | null;
  title: string;
}

export const subjectOf = (f: IssueFacts): ConditionSubject => ({
  status: f.status,
  priority: f.priority,
  assigneeId: f.assigneeIds[0] ?? null,
  projectId: f.projectId,
  title: f.title,
});

/**
 * The triggers one issue change fires. `issue.updated`: any update of a live issue;
 * `issue.status_changed` / `issue.priority_changed`: that field changed; `issue.assigned`: members
 * were added to the assignees (on creation too). Archive, unarchive and delete fire nothing.
 */
export function triggersOf(e: IssueChangedEvent): TriggerEvent[] {
  const out: TriggerEvent[] = [];
  if (e.kind === 'created') out.push('issue.created');
  if (e.kind === 'updated') {
    out.push('issue.updated');
    if (e.changedFields.includes('status')) out.push('issue.status_changed');
    if (e.changedFields.includes('priority')) out.push('issue.priority_changed');
  }
  if ((e.kind === 'created' || e.kind === 'updated') && e.assigneesAdded.length) out.push('issue.assigned');
  return out;
}

const FIELD_OF: Record<ConditionField, keyof ConditionSubject> = {
  status: 'status',
  priority: 'priority',
  assignee_id: 'assigneeId',
  project_id: 'projectId',
  title: 'title',
};

const equal = (a: ConditionValue, b: ConditionValue): boolean =>
  typeof a === 'string' && typeof b === 'string' ? a.toLowerCase() === b.toLowerCase() : a === b;

function holds(c: Condition, s: ConditionSubject): boolean {
  const actual = s[FIELD_OF[c.field]];
  switch (c.operator) {
    case 'eq':
      return equal(actual, c.value as ConditionValue);
    case 'neq':
      return !equal(actual, c.value as ConditionValue);
    case 'in':
      return (c.value as ConditionValue[]).some((v) => equal(actual, v));
    case 'not_in':
      return !(c.value as ConditionValue[]).some((v) => equal(actual, v));
    case 'contains':
      return typeof actual === 'string' && actual.toLowerCase().includes(String(c.value).toLowerCase());
  }
}

/** Every condition holds (an empty list always matches). */
export const conditionsMatch = (conditions: Condition[], s: ConditionSubject): boolean => conditions.every((c) => holds(c, s));
