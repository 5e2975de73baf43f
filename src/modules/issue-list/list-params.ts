import { Errors } from '../../common/errors/domain-error';
import { parsePage, type PageRequest } from '../../common/http/list';
import { isUuid } from '../../common/http/validation';
import { COLUMN_KEY_RE } from '../projects/project.rules';

/** Sortable fields (whitelist); camelCase spellings accepted. */
export const ORDER_FIELDS = ['created_at', 'updated_at', 'priority', 'due_date', 'title', 'status'] as const;
export type OrderField = (typeof ORDER_FIELDS)[number];
const ORDER_ALIASES: Record<string, OrderField> = { createdAt: 'created_at', updatedAt: 'updated_at', dueDate: 'due_date' };

export const Q_MAX = 500;
const LIST_MAX = 50;

/** Assignee selector: a member id, the caller, or nobody. */
export type AssigneeFilter = { kind: 'member'; id: string } | { kind: 'me' } | { kind: 'unassigned' };

/** Parsed, validated request filters (undefined = not given). */
export interface IssueListParams {
  page: PageRequest;
  compact: boolean;
  view?: 'board' | 'list';
  status?: string[];
  priority?: number[];
  projectId?: string;
  assigneeId?: AssigneeFilter;
  assignee?: AssigneeFilter;
  teamId?: string;
  milestoneId?: string;
  labelIds?: string[];
  parentId?: string;
  q?: string;
  open?: boolean;
  includeArchived?: boolean;
  orderBy?: OrderField;
  orderDir?: 'asc' | 'desc';
  initiativeId?: string;
  scope?: 'mine' | 'blocked';
  viewId?: string;
}

/** Every query key the list reads, with its snake_case aliases. */
const KEYS: Record<string, string[]> = {
  status: ['status'],
  priority: ['priority'],
  projectId: ['projectId', 'project_id'],
  assigneeId: ['assigneeId', 'assignee_id'],
  assignee: ['assignee'],
  teamId: ['teamId', 'team_id'],
  milestoneId: ['milestoneId', 'milestone_id'],
  labelId: ['labelId', 'label_id', 'labelIds', 'label_ids'],
  parentId: ['parentId', 'parent_id'],
  q: ['q'],
  open: ['open'],
  includeArchived: ['includeArchived', 'include_archived'],
  orderBy: ['orderBy', 'order_by'],
  orderDir: ['orderDir', 'order_dir'],
  view: ['view'],
  initiativeId: ['initiativeId', 'initiative_id'],
  scope: ['scope'],
  viewId: ['viewId', 'view_id'],
};

/** One string value of a key (and its aliases); arrays and repeats are a 400. */
function one(query: Record<string, unknown>, key: string): string | undefined {
  let found: { name: string; value: string } | undefined;
  for (const name of KEYS[key]) {
    const raw = query[name];
    if (raw === undefined) continue;
    if (Array.isArray(raw)) throw Errors.validation(`${name} must be given once (use a comma-separated list for several values)`);
    if (typeof raw !== 'string') throw Errors.validation(`${name} must be a plain value`);
    if (found && found.value !== raw) throw Errors.validation(`${found.name} and ${name} disagree; send one of them`);
    found ??= { name, value: raw };
  }
  return found?.value;
}

/** A non-blank value of a comma-separated list, from its first non-blank character (trimmed after). */
const CSV_VALUE_RE = /[^,\s][^,]*/g;

/** The non-blank values of a comma-separated list, trimmed; read only as far as LIST_MAX + 1 values (then 400). */
function csv(v: string, name: string): string[] {
  const parts: string[] = [];
  for (const m of v.matchAll(CSV_VALUE_RE)) {
    if (parts.push(m[0].trim()) > LIST_MAX) throw Errors.validation(`${name} takes at most ${LIST_MAX} values`);
  }
  if (!parts.length) throw Errors.validation(`${name} must not be empty`);
  return [...new Set(parts)];
}

function uuid(v: string | undefined, name: string): string | undefined {
  if (v === undefined) return undefined;
  if (!isUuid(v)) throw Errors.validation(`${name} must be a UUID`);
  return v.toLowerCase();
}

/** `v` lowercased when it is short enough to be one of the words it is compared with (lowercasing never shortens a text). */
const lowerWord = (v: string): string => (v.length <= 8 ? v.toLowerCase() : v);

function bool(v: string | undefined, name: string): boolean | undefined {
  if (v === undefined) return undefined;
  const s = lowerWord(v);
  if (s === 'true' || s === '1') return true;
  if (s === 'false' || s === '0') return false;
  throw Errors.validation(`${name} must be true or false`);
}

function assigneeOf(v: string | undefined, name: string): AssigneeFilter | undefined {
  if (v === undefined) return undefined;
  if (v === 'unassigned' || v === 'none') return { kind: 'unassigned' };
  if (v === 'me') return { kind: 'me' };
  if (isUuid(v)) return { kind: 'member', id: v.toLowerCase() };
  throw Errors.validation(`${name} must be a member UUID, "me" or "unassigned"`);
}

/** Statuses: `a` or `a,b,c`; each a well-formed status key. */
export function parseStatuses(v: string, name = 'status'): string[] {
  const out = csv(v, name);
  for (const s of out) if (!COLUMN_KEY_RE.test(s)) throw Errors.validation(`${name} "${s.slice(0, 60)}" is not a valid status key`);
  return out;
}

/**
 * Validates the whole query string of GET /issues. Bracketed keys (`status[]=x`,
 * `a[b]=1`, `__proto__[x]=1`) are refused: lists are comma-separated values.
 */
export function parseIssueListParams(query: Record<string, unknown>): IssueListParams {
  for (const k of Object.keys(query)) {
    if (k.includes('[') || k.includes(']'))
      throw Errors.validation(`Query parameter "${k.slice(0, 60)}" is not supported (use comma-separated values, e.g. status=todo,done)`);
  }
  const page = parsePage(query);
  const p: IssueListParams = { page, compact: false };

  const view = one(query, 'view');
  if (view !== undefined) {
    if (view !== 'board' && view !== 'list') throw Errors.validation('view must be board or list');
    p.view = view;
    p.compact = true;
  }

  const status = one(query, 'status');
  if (status !== undefined) p.status = parseStatuses(status);

  const priority = one(query, 'priority');
  if (priority !== undefined) {
    p.priority = csv(priority, 'priority').map((s) => {
      if (!/^[0-3]$/.test(s)) throw Errors.validation('priority must be 0, 1, 2 or 3 (or a comma-separated list of them)');
      return Number(s);
    });
  }

  p.projectId = uuid(one(query, 'projectId'), 'projectId');
  p.assigneeId = assigneeOf(one(query, 'assigneeId'), 'assigneeId');
  p.assignee = assigneeOf(one(query, 'assignee'), 'assignee');
  p.teamId = uuid(one(query, 'teamId'), 'teamId');
  p.milestoneId = uuid(one(query, 'milestoneId'), 'milestoneId');
  p.parentId = uuid(one(query, 'parentId'), 'parentId');
  const labels = one(query, 'labelId');
  if (labels !== undefined) p.labelIds = csv(labels, 'labelId').map((s) => uuid(s, 'labelId')!);

  const q = one(query, 'q');
  if (q !== undefined) {
    if (q.length > Q_MAX) throw Errors.validation(`q must be at most ${Q_MAX} characters`);
    if (q.trim()) p.q = q.trim();
  }

  p.open = bool(one(query, 'open'), 'open');
  p.includeArchived = bool(one(query, 'includeArchived'), 'includeArchived');

  const orderBy = one(query, 'orderBy');
  if (orderBy !== undefined) {
    const f = ORDER_ALIASES[orderBy] ?? orderBy;
    if (!(ORDER_FIELDS as readonly string[]).includes(f)) throw Errors.validation(`orderBy must be one of ${ORDER_FIELDS.join(', ')}`);
    p.orderBy = f as OrderField;
  }
  const orderDir = one(query, 'orderDir');
  if (orderDir !== undefined) {
    const d = lowerWord(orderDir);
    if (d !== 'asc' && d !== 'desc') throw Errors.validation('orderDir must be asc or desc');
    p.orderDir = d;
  }

  p.initiativeId = uuid(one(query, 'initiativeId'), 'initiativeId');
  const scope = one(query, 'scope');
  if (scope !== undefined) {
    if (scope !== 'mine' && scope !== 'blocked') throw Errors.validation('scope must be mine or blocked');
    p.scope = scope;
  }
  p.viewId = uuid(one(query, 'viewId'), 'viewId');
  return p;
}

/** Search text bounds (GET /issues/search). */
export const SEARCH_Q_MAX = 200;
export const SEARCH_WORDS_MAX = 20;

/** Parsed, validated parameters of GET /issues/search. */
export interface IssueSearchParams {
  page: PageRequest;
  /** Trimmed; at least one letter or digit. */
  q: string;
  includeArchived: boolean;
}

/** Control characters (C0 but tab, line feed and carriage return, which separate words; DEL; C1): never part of a search. */
const CONTROL_RE = /(?![\t\n\r])\p{Cc}/u;
/** A UTF-16 surrogate that is not half of a pair (with the `u` flag, pairs match as one code point). */
const LONE_SURROGATE_RE = /[\uD800-\uDFFF]/u;

/**
 * `q` as received: a percent escape the query-string parser could not decode (malformed UTF-8,
 * e.g. `%FF`) stays in the value verbatim, so a value that still holds one and does not decode was
 * not valid UTF-8.
 */
function undecodable(q: string): boolean {
  if (!/%[0-9A-Fa-f]{2}/.test(q)) return false;
  try {
    decodeURIComponent(q);
    return false;
  } catch {
    return true;
  }
}

/**
 * Validates the query string of GET /issues/search: `q` required (not blank, at most
 * SEARCH_Q_MAX characters and SEARCH_WORDS_MAX words, valid Unicode, no control characters, at
 * least one letter or digit), `includeArchived`, and the list paging and shape parameters.
 */
export function parseIssueSearchParams(query: Record<string, unknown>): IssueSearchParams {
  for (const k of Object.keys(query)) {
    if (k.includes('[') || k.includes(']')) throw Errors.validation(`Query parameter "${k.slice(0, 60)}" is not supported`);
  }
  const page = parsePage(query);
  const raw = one(query, 'q');
  if (raw === undefined) throw Errors.validation('q is required');
  if (raw.length > SEARCH_Q_MAX) throw Errors.validation(`q must be at most ${SEARCH_Q_MAX} characters`);
  if (LONE_SURROGATE_RE.test(raw) || undecodable(raw)) throw Errors.validation('q must be valid UTF-8 text');
  if (CONTROL_RE.test(raw)) throw Errors.validation('q must not contain control characters');
  const q = raw.trim();
  if (!q) throw Errors.validation('q must not be blank');
  if (!/[\p{L}\p{N}]/u.test(q)) throw Errors.validation('q must contain at least one letter or digit');
  if (q.split(/\s+/).length > SEARCH_WORDS_MAX) throw Errors.validation(`q must have at most ${SEARCH_WORDS_MAX} words`);
  return { page, q, includeArchived: bool(one(query, 'includeArchived'), 'includeArchived') ?? false };
}

/** `%`, `_` and `\` match themselves in ILIKE patterns (ESCAPE '\'). */
export const likePattern = (q: string): string => `%${q.replace(/[\\%_]/g, '\\$&')}%`;

/** The issue number a compact-list `q` names (`42`, `#42`, `KEY-42`), or undefined. */
export function issueNumberInQuery(q: string): number | undefined {
  const m = /^(?:#|[A-Za-z][A-Za-z0-9]*-)?(\d{1,9})$/.exec(q);
  return m ? Number(m[1]) : undefined;
}
