import { Errors } from '../../common/errors/domain-error';
import { isUuid } from '../../common/http/validation';

export const POLICY_SECTIONS = ['goals', 'standalone_kpis', 'standalone_initiatives', 'assigned_issues', 'project_context', 'signals', 'attention'] as const;
export type PolicySection = (typeof POLICY_SECTIONS)[number];
export const POLICY_CATEGORIES = ['task', 'initiative', 'kpi', 'project'] as const;
export type PolicyCategory = (typeof POLICY_CATEGORIES)[number];

export interface HeartbeatPolicy {
  sections: Record<PolicySection, boolean>;
  signal_categories: Record<PolicyCategory, boolean>;
  project_ids: string[];
  initiative_ids: string[];
  columns: Array<{ project_id: string; column_id: string }>;
}

export const POLICY_LIMITS = { projects: 100, initiatives: 100, columns: 200 } as const;

export function defaultPolicy(): HeartbeatPolicy {
  return {
    sections: Object.fromEntries(POLICY_SECTIONS.map((s) => [s, true])) as Record<PolicySection, boolean>,
    signal_categories: Object.fromEntries(POLICY_CATEGORIES.map((c) => [c, true])) as Record<PolicyCategory, boolean>,
    project_ids: [],
    initiative_ids: [],
    columns: [],
  };
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function switches<K extends string>(v: unknown, keys: readonly K[], field: string): Record<K, boolean> {
  const out = Object.fromEntries(keys.map((k) => [k, true])) as Record<K, boolean>;
  if (v === undefined) return out;
  if (!isObj(v)) throw Errors.validation(`policy.${field} must be an object of booleans keyed ${keys.join(', ')}`);
  for (const [k, b] of Object.entries(v)) {
    if (!(keys as readonly string[]).includes(k)) throw Errors.validation(`policy.${field}.${k} is not known; keys are ${keys.join(', ')}`);
    if (typeof b !== 'boolean') throw Errors.validation(`policy.${field}.${k} must be a boolean`);
    out[k as K] = b;
  }
  return out;
}

function ids(v: unknown, field: string, max: number): string[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw Errors.validation(`policy.${field} must be an array of ids`);
  if (v.length > max) throw Errors.validation(`policy.${field} holds at most ${max} ids`);
  v.forEach((x, i) => {
    if (typeof x !== 'string' || !isUuid(x)) throw Errors.validation(`policy.${field}[${i}] must be a UUID`);
  });
  return [...new Set(v as string[])].sort();
}

/**
 * The policy of a PUT or preview body `{ policy }` (shape only; ids are checked against the
 * organization and the agent's access by the caller). Omitted switches are on, omitted focus lists
 * empty (= all): PUT replaces the whole policy. Unknown keys are refused.
 */
export function parsePolicy(body: unknown): HeartbeatPolicy {
  if (!isObj(body)) throw Errors.validation('Request body must be a JSON object { policy }');
  for (const k of Object.keys(body)) if (k !== 'policy') throw Errors.validation(`${k} is not known; send { policy }`);
  const p = body.policy;
  if (!isObj(p)) throw Errors.validation('policy must be an object');
  for (const k of Object.keys(p)) {
    if (!['sections', 'signal_categories', 'project_ids', 'initiative_ids', 'columns'].includes(k)) throw Errors.validation(`policy.${k} is not known`);
  }
  const columns: HeartbeatPolicy['columns'] = [];
  if (p.columns !== undefined) {
    if (!Array.isArray(p.columns)) throw Errors.validation('policy.columns must be an array of { project_id, column_id }');
    if (p.columns.length > POLICY_LIMITS.columns) throw Errors.validation(`policy.columns holds at most ${POLICY_LIMITS.columns} entries`);
    p.columns.forEach((c, i) => {
      if (!isObj(c) || Object.keys(c).some((k) => k !== 'project_id' && k !== 'column_id')) {
        throw Errors.validation(`policy.columns[${i}] must be { project_id, column_id }`);
      }
      for (const k of ['project_id', 'column_id'] as const) {
        if (typeof c[k] !== 'string' || !isUuid(c[k] as string)) throw Errors.validation(`policy.columns[${i}].${k} must be a UUID`);
      }
      if (!columns.some((x) => x.column_id === c.column_id)) columns.push({ project_id: c.project_id as string, column_id: c.column_id as string });
    });
  }
  columns.sort((a, b) => (a.project_id + a.column_id < b.project_id + b.column_id ? -1 : 1));
  return {
    sections: switches(p.sections, POLICY_SECTIONS, 'sections'),
    signal_categories: switches(p.signal_categories, POLICY_CATEGORIES, 'signal_categories'),
    project_ids: ids(p.project_ids, 'project_ids', POLICY_LIMITS.projects),
    initiative_ids: ids(p.initiative_ids, 'initiative_ids', POLICY_LIMITS.initiatives),
    columns,
  };
}

/** What the agent may select now: projects it can read, initiatives it can see, and their board columns. */
export interface Selectable {
  projects: Set<string>;
  initiatives: Set<string>;
  /** column id -> project id, for selectable projects */
  columns: Map<string, string>;
}

export interface StaleSelections {
  project_ids: string[];
  initiative_ids: string[];
  columns: Array<{ project_id: string; column_id: string }>;
}

/** The sanitized (editable) policy and what was removed from it. */
export function sanitize(p: HeartbeatPolicy, s: Selectable): { effective: HeartbeatPolicy; stale: StaleSelections } {
  const stale: StaleSelections = { project_ids: [], initiative_ids: [], columns: [] };
  const effective: HeartbeatPolicy = {
    sections: { ...p.sections },
    signal_categories: { ...p.signal_categories },
    project_ids: [],
    initiative_ids: [],
    columns: [],
  };
  for (const id of p.project_ids) (s.projects.has(id) ? effective.project_ids : stale.project_ids).push(id);
  for (const id of p.initiative_ids) (s.initiatives.has(id) ? effective.initiative_ids : stale.initiative_ids).push(id);
  for (const c of p.columns) (s.columns.get(c.column_id) === c.project_id ? effective.columns : stale.columns).push(c);
  return { effective, stale };
}

export const hasStale = (s: StaleSelections): boolean => s.project_ids.length + s.initiative_ids.length + s.columns.length > 0;

/** What a signal is about, for the focus dimensions. */
export interface SignalScope {
  category: PolicyCategory;
  projectIds: string[];
  initiativeIds: string[];
  /** Task signals: the issues (project and status) the signal is about. */
  issues: Array<{ projectId: string | null; status: string }>;
}

/**
 * Whether a proactive signal passes the policy: its category is on; then each non-empty focus
 * dimension must match (OR within a dimension, AND across); column focus narrows task signals only.
 * Stale ids in a saved policy stay in it and match nothing (fail closed: never broadened to "all").
 */
export function signalPasses(p: HeartbeatPolicy, s: SignalScope, columnKeys: Map<string, string>): boolean {
  if (!p.signal_categories[s.category]) return false;
  if (p.project_ids.length && !s.projectIds.some((id) => p.project_ids.includes(id))) return false;
  if (p.initiative_ids.length && !s.initiativeIds.some((id) => p.initiative_ids.includes(id))) return false;
  if (p.columns.length && s.category === 'task') {
    const wanted = new Set(p.columns.map((c) => `${c.project_id}|${columnKeys.get(c.column_id) ?? '\u0000'}`));
    if (!s.issues.some((i) => i.projectId && wanted.has(`${i.projectId}|${i.status}`))) return false;
  }
  return true;
}
