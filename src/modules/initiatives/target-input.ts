import { Errors } from '../../common/errors/domain-error';
import { isUuid } from '../../common/http/validation';
import { date, field, num, oneOf, text } from './fields';

export const TARGET_MODES = ['progress', 'gate'] as const;
export const TARGET_STATUSES = ['active', 'completed', 'cancelled'] as const;
export const TARGET_UNITS = ['count', 'percentage', 'currency', 'duration', 'ratio', 'custom'] as const;
export const TARGET_DIRECTIONS = ['increase', 'decrease', 'maintain'] as const;
export const SCOPE_TYPES = ['initiative', 'projects'] as const;
export type ScopeType = (typeof SCOPE_TYPES)[number];

export interface TargetInput {
  title?: string;
  description?: string | null;
  mode?: (typeof TARGET_MODES)[number];
  status?: (typeof TARGET_STATUSES)[number];
  unit?: (typeof TARGET_UNITS)[number];
  unitLabel?: string | null;
  baselineValue?: number | null;
  currentValue?: number | null;
  targetValue?: number | null;
  targetDirection?: (typeof TARGET_DIRECTIONS)[number];
  targetDate?: string | null;
  dueSoonDays?: number;
  scope?: { type: ScopeType; projectIds: string[] };
}

const MAX_VALUE = 1e15;

/**
 * Target body (create and update; update changes only the fields sent, null clears). Scope:
 * `scope: { type: 'initiative' }` or `scope: { type: 'projects', project_ids: [...] }`, or the flat
 * aliases `scope_type` + `scope_project_ids` (camelCase too). Gate counts are checked against the
 * stored record by `assertGateCounts` once merged.
 */
export function targetInput(body: object, mode: 'create' | 'update'): TargetInput {
  const out: TargetInput = {};
  const title = text(body, 'title', { max: 500, required: mode === 'create' });
  if (title !== undefined) out.title = title as string;
  const description = field(body, 'description');
  if (description !== undefined) {
    if (description !== null && typeof description !== 'string') throw Errors.validation('description must be a string or null');
    if (typeof description === 'string' && description.length > 100000) throw Errors.validation('description must be at most 100000 characters');
    out.description = description === null || !description.trim() ? null : description;
  }
  out.mode = oneOf(body, 'mode', TARGET_MODES);
  out.status = oneOf(body, 'status', TARGET_STATUSES);
  out.unit = oneOf(body, 'unit', TARGET_UNITS);
  out.unitLabel = text(body, 'unit_label', { max: 100, nullable: true });
  const range = { min: -MAX_VALUE, max: MAX_VALUE };
  out.baselineValue = num(body, 'baseline_value', range);
  out.currentValue = num(body, 'current_value', range);
  out.targetValue = num(body, 'target_value', range);
  out.targetDirection = oneOf(body, 'target_direction', TARGET_DIRECTIONS);
  out.targetDate = date(body, 'target_date');
  const soon = field(body, 'due_soon_days');
  if (soon === null) throw Errors.validation('due_soon_days must be a whole number from 0 to 365');
  const dueSoon = num(body, 'due_soon_days', { min: 0, max: 365, integer: true });
  if (dueSoon !== undefined && dueSoon !== null) out.dueSoonDays = dueSoon;
  const scope = scopeInput(body);
  if (scope) out.scope = scope;
  for (const k of Object.keys(out) as Array<keyof TargetInput>) if (out[k] === undefined) delete out[k];
  return out;
}

function scopeInput(body: object): TargetInput['scope'] | undefined {
  const nested = field(body, 'scope');
  let type: unknown;
  let ids: unknown;
  if (nested !== undefined) {
    if (typeof nested === 'string') type = nested;
    else if (nested && typeof nested === 'object' && !Array.isArray(nested)) {
      type = (nested as Record<string, unknown>).type;
      ids = field(nested, 'project_ids');
    } else throw Errors.validation('scope must be an object { type, project_ids? }');
  }
  const flatType = field(body, 'scope_type');
  const flatIds = field(body, 'scope_project_ids');
  if (type === undefined) type = flatType;
  if (ids === undefined) ids = flatIds;
  if (type === undefined && ids === undefined) return undefined;
  if (type === undefined && ids !== undefined) type = 'projects';
  if (typeof type !== 'string' || !(SCOPE_TYPES as readonly string[]).includes(type))
    throw Errors.validation(`scope.type must be one of ${SCOPE_TYPES.join(', ')}`);
  if (type === 'initiative') {
    if (ids !== undefined && ids !== null && !(Array.isArray(ids) && ids.length === 0))
      throw Errors.validation('scope.project_ids is only for scope type projects');
    return { type: 'initiative', projectIds: [] };
  }
  if (!Array.isArray(ids) || ids.length === 0) throw Errors.validation('scope.project_ids must be a non-empty array of project UUIDs');
  if (ids.length > 100) throw Errors.validation('scope.project_ids must have at most 100 entries');
  if (!ids.every(isUuid)) throw Errors.validation('scope.project_ids must hold project UUIDs');
  return { type: 'projects', projectIds: [...new Set((ids as string[]).map((i) => i.toLowerCase()))] };
}

/** Gate targets count items: completed (`current_value`) against needed (`target_value`), whole and non-negative. */
export function assertGateCounts(mode: string, currentValue: number | null, targetValue: number | null): void {
  if (mode !== 'gate') return;
  for (const [name, v] of [
    ['current_value', currentValue],
    ['target_value', targetValue],
  ] as const) {
    if (v !== null && (!Number.isInteger(v) || v < 0)) throw Errors.validation(`${name} of a gate target is a count of items: a whole number, at least 0`);
  }
}
