import { Errors } from '../../common/errors/domain-error';
import { isUuid } from '../../common/http/validation';
import { cleanCommentBody } from '../comments/comment-body';
import {
  ACTION_TYPES,
  type Action,
  CONDITION_FIELDS,
  CONDITION_OPERATORS,
  type Condition,
  type ConditionField,
  type ConditionValue,
  type RuleDefinition,
  TRIGGER_EVENTS,
  type TriggerEvent,
} from './automation-rule.model';

/**
 * Parses a rule body (create: every required field; update: what is present) with the checks that
 * need no database: shapes, enumerations, value types. A malformed item is a 400 naming it
 * (`conditions[1].value …`); nothing is stored. References (project, statuses, member, label,
 * webhook) are checked against the organization by AutomationRuleValidator.
 */
export const MAX_CONDITIONS = 20;
export const MAX_ACTIONS = 20;
export const MAX_IN_VALUES = 50;
const STATUS_RE = /^[a-z][a-z0-9_]{0,49}$/;

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const isPriority = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 3;

export function parseRuleInput(raw: Record<string, unknown>, mode: 'create' | 'update'): Partial<RuleDefinition> {
  const out: Partial<RuleDefinition> = {};
  const name = raw.name;
  if (name !== undefined) {
    if (typeof name !== 'string' || !name.trim()) throw Errors.validation('name must be a non-empty string');
    if (name.trim().length > 200) throw Errors.validation('name must be at most 200 characters');
    out.name = name.trim();
  } else if (mode === 'create') throw Errors.validation('name is required');

  const trigger = raw.trigger_event;
  if (trigger !== undefined) {
    if (typeof trigger !== 'string' || !(TRIGGER_EVENTS as readonly string[]).includes(trigger)) {
      throw Errors.validation(`trigger_event must be one of: ${TRIGGER_EVENTS.join(', ')}`);
    }
    out.triggerEvent = trigger as TriggerEvent;
  } else if (mode === 'create') throw Errors.validation('trigger_event is required');

  const conditions = raw.conditions;
  if (conditions !== undefined && conditions !== null) out.conditions = parseConditions(conditions);
  else if (mode === 'create' || conditions === null) out.conditions = [];

  const actions = raw.actions;
  if (actions !== undefined) out.actions = parseActions(actions);
  else if (mode === 'create') throw Errors.validation('actions is required');

  const enabled = raw.enabled;
  if (enabled !== undefined) {
    if (typeof enabled !== 'boolean') throw Errors.validation('enabled must be a boolean');
    out.enabled = enabled;
  } else if (mode === 'create') out.enabled = true;

  const projectId = raw.project_id;
  if (projectId !== undefined) {
    if (projectId !== null && !isUuid(projectId)) throw Errors.validation('project_id must be a project id (UUID) or null');
    out.projectId = projectId === null ? null : projectId.toLowerCase();
  } else if (mode === 'create') out.projectId = null;
  return out;
}

function parseConditions(raw: unknown): Condition[] {
  if (!Array.isArray(raw)) throw Errors.validation('conditions must be an array of { field, operator, value }');
  if (raw.length > MAX_CONDITIONS) throw Errors.validation(`conditions can have at most ${MAX_CONDITIONS} items`);
  return raw.map((item, i) => parseCondition(item, `conditions[${i}]`));
}

const FIELD_ALIASES: Record<string, ConditionField> = { assigneeId: 'assignee_id', projectId: 'project_id' };

function parseCondition(item: unknown, at: string): Condition {
  if (!isObj(item)) throw Errors.validation(`${at} must be an object { field, operator, value }`);
  const f = typeof item.field === 'string' ? (FIELD_ALIASES[item.field] ?? item.field) : item.field;
  if (typeof f !== 'string' || !(CONDITION_FIELDS as readonly string[]).includes(f)) {
    throw Errors.validation(`${at}.field must be one of: ${CONDITION_FIELDS.join(', ')}`);
  }
  const field = f as ConditionField;
  const op = item.operator;
  if (typeof op !== 'string' || !(CONDITION_OPERATORS as readonly string[]).includes(op)) {
    throw Errors.validation(`${at}.operator must be one of: ${CONDITION_OPERATORS.join(', ')}`);
  }
  if (!('value' in item)) throw Errors.validation(`${at}.value is required`);
  if (op === 'contains') {
    if (field !== 'title') throw Errors.validation(`${at}: contains applies to title only`);
    return { field, operator: op, value: scalar(field, item.value, `${at}.value`, false) };
  }
  if (op === 'in' || op === 'not_in') {
    const v = item.value;
    if (!Array.isArray(v) || !v.length || v.length > MAX_IN_VALUES) {
      throw Errors.validation(`${at}.value must be an array of 1..${MAX_IN_VALUES} values for ${op}`);
    }
    return { field, operator: op, value: v.map((x, j) => scalar(field, x, `${at}.value[${j}]`, true)) };
  }
  return { field, operator: op as 'eq' | 'neq', value: scalar(field, item.value, `${at}.value`, true) };
}

/** One comparison value of a field: status key, priority 0..3, member/project UUID or null, title text. */
function scalar(field: ConditionField, v: unknown, at: string, allowNull: boolean): ConditionValue {
  switch (field) {
    case 'status':
      if (typeof v !== 'string' || !STATUS_RE.test(v)) throw Errors.validation(`${at} must be a status key (e.g. todo, in_progress)`);
      return v;
    case 'priority':
      if (!isPriority(v)) throw Errors.validation(`${at} must be a priority, an integer 0..3`);
      return v;
    case 'assignee_id':
    case 'project_id':
      if (v === null && allowNull) return null;
      if (!isUuid(v)) throw Errors.validation(`${at} must be a UUID${allowNull ? ' or null' : ''}`);
      return v.toLowerCase();
    case 'title':
      if (typeof v !== 'string' || !v.trim() || v.length > 500) throw Errors.validation(`${at} must be a non-empty string of at most 500 characters`);
      return v;
  }
}

function parseActions(raw: unknown): Action[] {
  if (!Array.isArray(raw) || !raw.length) throw Errors.validation('actions must be a non-empty array of { type, value }');
  if (raw.length > MAX_ACTIONS) throw Errors.validation(`actions can have at most ${MAX_ACTIONS} items`);
  return raw.map((item, i) => parseAction(item, `actions[${i}]`));
}

function parseAction(item: unknown, at: string): Action {
  if (!isObj(item)) throw Errors.validation(`${at} must be an object { type, value }`);
  const type = item.type;
  if (typeof type !== 'string' || !(ACTION_TYPES as readonly string[]).includes(type)) {
    throw Errors.validation(`${at}.type must be one of: ${ACTION_TYPES.join(', ')}`);
  }
  const v = item.value;
  switch (type as Action['type']) {
    case 'set_status':
      if (typeof v !== 'string' || (!STATUS_RE.test(v) && v !== 'cancelled'))
        throw Errors.validation(`${at}.value must be a status key (e.g. todo, in_progress, done)`);
      return { type: 'set_status', value: v };
    case 'set_assignee':
      if (v === undefined) throw Errors.validation(`${at}.value is required (a member id, or null to unassign)`);
      if (v !== null && !isUuid(v)) throw Errors.validation(`${at}.value must be a member id (UUID) or null`);
      return { type: 'set_assignee', value: v === null ? null : v.toLowerCase() };
    case 'set_priority':
      if (!isPriority(v)) throw Errors.validation(`${at}.value must be a priority, an integer 0..3`);
      return { type: 'set_priority', value: v };
    case 'add_label':
      if (!isUuid(v)) throw Errors.validation(`${at}.value must be a label id (UUID)`);
      return { type: 'add_label', value: v.toLowerCase() };
    case 'post_comment':
      cleanCommentBody(v, `${at}.value`);
      return { type: 'post_comment', value: (v as string).trim() };
    case 'close_issue':
      if (v !== undefined && v !== null && v !== true) throw Errors.validation(`${at}.value must be omitted for close_issue`);
      return { type: 'close_issue' };
    case 'send_webhook': {
      const id = item.webhook_id;
      if (!isUuid(id)) throw Errors.validation(`${at}.webhook_id must be a webhook id (UUID)`);
      return { type: 'send_webhook', webhook_id: id.toLowerCase() };
    }
  }
}
