import { Errors } from '../../common/errors/domain-error';
import { isUuid } from '../../common/http/validation';
import { COLUMN_KEY_RE, SYSTEM_STATUS_CANCELLED } from './project.rules';

/** Custom view filters: the issue-list filters a view can save. */
export interface CustomViewFilters {
  status?: string[];
  priority?: number[];
  assignee?: string;
  assigneeIds?: string[];
  labelIds?: string[];
  q?: string;
  open?: boolean;
  includeArchived?: boolean;
  milestoneId?: string;
  teamId?: string;
}

export const SORT_FIELDS = ['created_at', 'updated_at', 'priority', 'due_date', 'title', 'status'] as const;
export type SortField = (typeof SORT_FIELDS)[number];
export interface CustomViewSort {
  field: SortField;
  direction: 'asc' | 'desc';
}
export const DISPLAY_MODES = ['list', 'board', 'table'] as const;
export type DisplayMode = (typeof DISPLAY_MODES)[number];

const MAX_ARRAY = 100;

type Check = (name: string, v: unknown) => unknown;

const uuidArray: Check = (name, v) => {
  if (!Array.isArray(v) || v.length > MAX_ARRAY || !v.every(isUuid))
    throw Errors.validation(`filters.${name} must be an array of UUIDs (at most ${MAX_ARRAY})`);
  return [...new Set(v.map((s) => s.toLowerCase()))];
};
const uuid: Check = (name, v) => {
  if (!isUuid(v)) throw Errors.validation(`filters.${name} must be a UUID`);
  return v.toLowerCase();
};
const bool: Check = (name, v) => {
  if (typeof v !== 'boolean') throw Errors.validation(`filters.${name} must be a boolean`);
  return v;
};

/** Known keys (camelCase, as stored) with their snake_case aliases and checks. */
const FILTERS: Record<keyof CustomViewFilters, { aliases: string[]; check: Check }> = {
  status: {
    aliases: [],
    check: (name, v) => {
      const ok = (s: unknown) => typeof s === 'string' && (COLUMN_KEY_RE.test(s) || s === SYSTEM_STATUS_CANCELLED);
      if (!Array.isArray(v) || v.length > MAX_ARRAY || !v.every(ok)) throw Errors.validation(`filters.${name} must be an array of status keys`);
      return [...new Set(v as string[])];
    },
  },
  priority: {
    aliases: [],
    check: (name, v) => {
      const ok = (p: unknown) => Number.isInteger(p) && (p as number) >= 0 && (p as number) <= 3;
      if (!Array.isArray(v) || !v.every(ok)) throw Errors.validation(`filters.${name} must be an array of integers 0..3`);
      return [...new Set(v as number[])];
    },
  },
  assignee: {
    aliases: [],
    check: (name, v) => {
      if (v === 'me' || v === 'unassigned') return v;
      if (isUuid(v)) return v.toLowerCase();
      throw Errors.validation(`filters.${name} must be "me", "unassigned" or a member UUID`);
    },
  },
  assigneeIds: { aliases: ['assignee_ids'], check: uuidArray },
  labelIds: { aliases: ['label_ids'], check: uuidArray },
  q: {
    aliases: [],
    check: (name, v) => {
      if (typeof v !== 'string' || v.length > 500) throw Errors.validation(`filters.${name} must be a string of at most 500 characters`);
      return v;
    },
  },
  open: { aliases: [], check: bool },
  includeArchived: { aliases: ['include_archived'], check: bool },
  milestoneId: { aliases: ['milestone_id'], check: uuid },
  teamId: { aliases: ['team_id'], check: uuid },
};

const ALIAS_OF = new Map<string, keyof CustomViewFilters>();
for (const [key, def] of Object.entries(FILTERS) as Array<[keyof CustomViewFilters, { aliases: string[] }]>) {
  ALIAS_OF.set(key, key);
  for (const a of def.aliases) ALIAS_OF.set(a, key);
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Validates and normalizes saved filters (snake_case aliases become camelCase). Unknown keys are a 400. */
export function parseFilters(raw: unknown): CustomViewFilters {
  if (raw === undefined || raw === null) return {};
  if (!isPlainObject(raw)) throw Errors.validation('filters must be an object');
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(raw)) {
    const key = ALIAS_OF.get(name);
    if (!key) throw Errors.validation(`filters.${name} is not a known filter (known: ${Object.keys(FILTERS).join(', ')})`);
    if (value === undefined) continue;
    const normalized = FILTERS[key].check(name, value);
    if (key in out && JSON.stringify(out[key]) !== JSON.stringify(normalized)) throw Errors.validation(`filters.${key} is given twice with different values`);
    out[key] = normalized;
  }
  return out as CustomViewFilters;
}

/** `{ field, direction }`; direction defaults to `desc`. null clears the sort. */
export function parseSort(raw: unknown): CustomViewSort | null {
  if (raw === undefined || raw === null) return null;
  if (!isPlainObject(raw)) throw Errors.validation('sort must be an object { field, direction }');
  for (const k of Object.keys(raw)) {
    if (k !== 'field' && k !== 'direction') throw Errors.validation(`sort.${k} is not allowed (sort is { field, direction })`);
  }
  const { field, direction = 'desc' } = raw as { field?: unknown; direction?: unknown };
  if (typeof field !== 'string' || !(SORT_FIELDS as readonly string[]).includes(field)) {
    throw Errors.validation(`sort.field must be one of ${SORT_FIELDS.join(', ')}`);
  }
  if (direction !== 'asc' && direction !== 'desc') throw Errors.validation('sort.direction must be asc or desc');
  return { field: field as SortField, direction };
}
