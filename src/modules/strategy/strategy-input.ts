import { DomainError, Errors } from '../../common/errors/domain-error';
import { alias, isUuid } from '../../common/http/validation';
import { isCalendarDate } from '../../common/http/calendar-date';

/** Field-by-field request parsing of goals, KPIs and snapshots (one readable 400 per problem). */

export const GOAL_STATUSES = ['active', 'achieved', 'missed', 'paused', 'cancelled'] as const;
export const KPI_UNITS = ['count', 'percentage', 'currency', 'duration', 'ratio', 'custom'] as const;
export const KPI_DIRECTIONS = ['increase', 'decrease', 'maintain'] as const;
export const KPI_SOURCE_TYPES = ['manual', 'webhook', 'api_poll', 'formula'] as const;
export const SNAPSHOT_SOURCES = ['manual', 'webhook', 'api_poll', 'formula', 'agent'] as const;
/** Sources a caller may record through POST snapshots (api_poll is the HTTP syncs', formula the service's). */
export const RECORDABLE_SNAPSHOT_SOURCES = ['manual', 'webhook', 'agent'] as const;
export const FORMULA_GOAL_LINKED_ISSUE_COMPLETION = 'goal_linked_issue_completion';
export const MAX_STALE_AFTER_HOURS = 87_600; // ten years
export const MAX_DONE_STATUSES = 50;

type Body = Record<string, unknown>;
/** `undefined` = not sent; `null` = clear. */
type Opt<T> = T | null | undefined;

function text(v: unknown, name: string, max: number, required: boolean): Opt<string> {
  if (v === undefined) return undefined;
  if (v === null) {
    if (required) throw Errors.validation(`${name} must be a non-empty string`);
    return null;
  }
  if (typeof v !== 'string') throw Errors.validation(`${name} must be a string`);
  const s = v.trim();
  if (required && !s) throw Errors.validation(`${name} must be a non-empty string`);
  if (s.length > max) throw Errors.validation(`${name} must be at most ${max} characters`);
  return s || null;
}

function oneOf<T extends string>(v: unknown, name: string, values: readonly T[]): T | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) throw Errors.validation(`${name} must be one of ${values.join(', ')}`);
  return v as T;
}

function date(v: unknown, name: string): Opt<string> {
  if (v === undefined || v === null) return v as Opt<string>;
  if (typeof v !== 'string' || !isCalendarDate(v)) throw Errors.validation(`${name} must be a date YYYY-MM-DD or null`);
  return v;
}

function uuid(v: unknown, name: string): Opt<string> {
  if (v === undefined || v === null) return v as Opt<string>;
  if (!isUuid(v)) throw Errors.validation(`${name} must be a UUID or null`);
  return v.toLowerCase();
}

function finite(v: unknown, name: string): Opt<number> {
  if (v === undefined || v === null) return v as Opt<number>;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw Errors.validation(`${name} must be a finite number or null`);
  return v;
}

export interface GoalInput {
  title?: string;
  description?: string | null;
  ownerId?: string | null;
  status?: (typeof GOAL_STATUSES)[number];
  targetDate?: string | null;
  projectId?: string | null;
}

export function goalInput(b: Body): GoalInput {
  return {
    title: text(b.title, 'title', 500, true) ?? undefined,
    description: text(b.description, 'description', 100_000, false),
    ownerId: uuid(b.owner_id, 'owner_id'),
    status: oneOf(b.status, 'status', GOAL_STATUSES),
    targetDate: date(b.target_date, 'target_date'),
    projectId: uuid(b.project_id, 'project_id'),
  };
}

export interface FormulaConfig {
  formula: typeof FORMULA_GOAL_LINKED_ISSUE_COMPLETION;
  done_statuses: string[];
}

export interface KpiInput {
  name?: string;
  description?: string | null;
  goalId?: string | null;
  projectId?: string | null;
  unit?: (typeof KPI_UNITS)[number];
  unitLabel?: string | null;
  baselineValue?: number | null;
  targetValue?: number | null;
  targetDate?: string | null;
  targetDirection?: (typeof KPI_DIRECTIONS)[number];
  sourceType?: (typeof KPI_SOURCE_TYPES)[number];
  sourceConfig?: Record<string, unknown> | null;
  staleAfterHours?: number | null;
}

export function kpiInput(b: Body): KpiInput {
  const stale = b.stale_after_hours;
  if (stale !== undefined && stale !== null && (typeof stale !== 'number' || !Number.isInteger(stale) || stale < 1 || stale > MAX_STALE_AFTER_HOURS)) {
    throw Errors.validation(`stale_after_hours must be a positive integer (at most ${MAX_STALE_AFTER_HOURS}) or null`);
  }
  const config = b.source_config;
  if (config !== undefined && config !== null && (typeof config !== 'object' || Array.isArray(config))) {
    throw Errors.validation('source_config must be an object or null');
  }
  if (config && JSON.stringify(config).length > 10_000) throw Errors.validation('source_config must be at most 10000 characters of JSON');
  return {
    name: text(b.name, 'name', 200, true) ?? undefined,
    description: text(b.description, 'description', 100_000, false),
    goalId: uuid(b.goal_id, 'goal_id'),
    projectId: uuid(b.project_id, 'project_id'),
    unit: oneOf(b.unit, 'unit', KPI_UNITS),
    unitLabel: text(b.unit_label, 'unit_label', 100, false),
    baselineValue: finite(b.baseline_value, 'baseline_value'),
    targetValue: finite(b.target_value, 'target_value'),
    targetDate: date(b.target_date, 'target_date'),
    targetDirection: oneOf(b.target_direction, 'target_direction', KPI_DIRECTIONS),
    sourceType: oneOf(b.source_type, 'source_type', KPI_SOURCE_TYPES),
    sourceConfig: config as Record<string, unknown> | null | undefined,
    staleAfterHours: stale as number | null | undefined,
  };
}

/**
 * `{ formula: "goal_linked_issue_completion", done_statuses: [status, ...] }`: a non-empty array
 * of unique non-empty status strings (trimmed, ≤ 100 characters, at most 50). Nothing else.
 */
export function formulaConfig(config: Record<string, unknown> | null | undefined): FormulaConfig {
  if (!config) throw Errors.validation(`A formula KPI needs source_config { formula: "${FORMULA_GOAL_LINKED_ISSUE_COMPLETION}", done_statuses: [...] }`);
  if (config.formula !== FORMULA_GOAL_LINKED_ISSUE_COMPLETION)
    throw Errors.validation(`source_config.formula must be "${FORMULA_GOAL_LINKED_ISSUE_COMPLETION}"`);
  const extra = Object.keys(config).filter((k) => !['formula', 'done_statuses', 'doneStatuses'].includes(k));
  if (extra.length) throw Errors.validation(`source_config has unknown fields: ${extra.join(', ')}`);
  const raw = alias<unknown>(config, 'done_statuses', 'doneStatuses');
  if (!Array.isArray(raw) || raw.length === 0) throw Errors.validation('source_config.done_statuses must be a non-empty array of statuses');
  if (raw.length > MAX_DONE_STATUSES) throw Errors.validation(`source_config.done_statuses has at most ${MAX_DONE_STATUSES} statuses`);
  const statuses: string[] = [];
  for (const s of raw) {
    if (typeof s !== 'string' || !s.trim() || s.trim().length > 100) throw Errors.validation('source_config.done_statuses must hold non-empty status strings');
    if (!statuses.includes(s.trim())) statuses.push(s.trim());
  }
  return { formula: FORMULA_GOAL_LINKED_ISSUE_COMPLETION, done_statuses: statuses };
}

export interface SnapshotInput {
  value: number;
  source: (typeof RECORDABLE_SNAPSHOT_SOURCES)[number];
  attributionNote: string | null;
  initiativeId: string | null;
  issueId: string | null;
}

export function snapshotInput(b: Body): SnapshotInput {
  if (b.value === undefined || b.value === null) throw Errors.validation('value is required');
  const value = finite(b.value, 'value') as number;
  const source = oneOf(b.source ?? 'manual', 'source', SNAPSHOT_SOURCES)!;
  if (source === 'api_poll') {
    throw new DomainError(400, 'snapshot_source_reserved', 'api_poll snapshots are written only by published KPI HTTP syncs');
  }
  if (source === 'formula') throw new DomainError(400, 'snapshot_source_reserved', 'formula snapshots are written only by the service');
  return {
    value,
    source,
    attributionNote: text(b.attribution_note, 'attribution_note', 2000, false) ?? null,
    initiativeId: uuid(b.attributed_to_initiative_id, 'attributed_to_initiative_id') ?? null,
    issueId: uuid(b.attributed_to_issue_id, 'attributed_to_issue_id') ?? null,
  };
}
