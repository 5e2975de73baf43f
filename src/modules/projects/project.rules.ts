import { foldAccents, nameHead } from '../../common/naming/slug';

/**
 * Pure rules of the projects domain: project keys and slugs, board column keys, and the
 * defaults every new project starts with.
 */

/** Issue prefix of a project: an uppercase letter, then 1..9 uppercase letters or digits. */
export const PROJECT_KEY_RE = /^[A-Z][A-Z0-9]{1,9}$/;
/** Keys no project may take: `TSK` is the universal issue reference prefix. */
export const RESERVED_PROJECT_KEYS: readonly string[] = ['TSK'];

/** Board column key (and issue status): lowercase letter, then letters, digits, underscores. */
export const COLUMN_KEY_RE = /^[a-z][a-z0-9_]{0,49}$/;
/** Workflow roles a board column may have for recommendations (null: not configured, never recommended from). */
export const RECOMMENDATION_ROLES = ['candidate', 'active', 'excluded'] as const;
export type RecommendationRole = (typeof RECOMMENDATION_ROLES)[number];
/** The system status every project accepts besides its column keys; no column may use it. */
export const SYSTEM_STATUS_CANCELLED = 'cancelled';

export { HEX_COLOR_RE } from '../../common/http/input';

/**
 * A key derived from the project name: initials of a multi-word name ("Mobile App" → `MA`),
 * otherwise the first letters of the single word ("Platform" → `PLAT`). Always valid.
 */
export function deriveKeyBase(name: string): string {
  const words = foldAccents(nameHead(name))
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter(Boolean);
  const stripDigits = (s: string) => s.replace(/^[0-9]+/, '');
  let base = words.length >= 2 ? stripDigits(words.map((w) => w[0]).join('')).slice(0, 5) : '';
  if (base.length < 2) base = stripDigits(words.join('')).slice(0, 4);
  if (base.length === 0) base = 'PRJ';
  if (base.length === 1) base = `${base}P`;
  return base;
}

/** `base` when free, otherwise `base2`, `base3`… (the base shortened so the key stays ≤ 10). */
export function uniqueKey(base: string, taken: (key: string) => boolean): string {
  if (!taken(base)) return base;
  for (let n = 2; n < 100_000; n++) {
    const suffix = String(n);
    const candidate = base.slice(0, 10 - suffix.length) + suffix;
    if (!taken(candidate)) return candidate;
  }
  throw new Error('no free project key');
}

export const DEFAULT_COLUMNS: ReadonlyArray<{ key: string; label: string }> = [
  { key: 'backlog', label: 'Backlog' },
  { key: 'todo', label: 'Todo' },
  { key: 'in_progress', label: 'In Progress' },
  { key: 'done', label: 'Done' },
];

export const DEFAULT_BOARD_VIEW_NAME = 'Default';

export const DEFAULT_CUSTOM_VIEWS: ReadonlyArray<{
  name: string;
  filters: Record<string, unknown>;
  sort: { field: string; direction: 'asc' | 'desc' };
  displayMode: 'list' | 'board' | 'table';
}> = [
  { name: 'All Tasks', filters: {}, sort: { field: 'created_at', direction: 'desc' }, displayMode: 'list' },
  { name: 'My Tasks', filters: { assignee: 'me', open: true }, sort: { field: 'priority', direction: 'asc' }, displayMode: 'list' },
  { name: 'Recently Updated', filters: {}, sort: { field: 'updated_at', direction: 'desc' }, displayMode: 'list' },
];
