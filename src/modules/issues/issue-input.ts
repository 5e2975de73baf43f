import { DomainError, Errors } from '../../common/errors/domain-error';
import type { FieldProblem } from '../../common/http/aliases';
import { invalidRequest, isUuid } from '../../common/http/validation';
import { RECURRENCE_INPUT_KEYS, type RecurrenceInput } from './recurrence.rules';

/**
 * Request-field parsing for issue create, bulk create and update: every field under its canonical
 * name (the validation pipe has mapped the aliases), type-checked with clear 400 messages. What needs the database (status in the
 * project, assignees, milestone, team, labels) is checked by the writer.
 */

export const TITLE_MAX = 500;
export const DESCRIPTION_MAX = 100000;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Recurrence fields in camelCase (what `applyRecurrence` takes). */
export type RecurrenceInputFields = RecurrenceInput;

export interface ParsedIssueFields {
  title?: string;
  description?: string | null;
  status?: string;
  priority?: number;
  /** undefined: not given; []: clear */
  assigneeIds?: string[];
  /** undefined: not given; null: projectless */
  projectId?: string | null;
  milestoneId?: string | null;
  teamId?: string | null;
  startDate?: string | null;
  dueDate?: string | null;
  labelIds?: string[];
  /** Create only: the template whose content becomes the description unless one is given */
  templateId?: string;
  recurrence: RecurrenceInputFields;
  hasRecurrence: boolean;
}

const has = (v: unknown) => v !== undefined;

export function parseTitle(v: unknown): string {
  if (typeof v !== 'string') throw Errors.validation('title must be a string');
  const t = v.trim();
  if (!t) throw Errors.validation('title is required');
  // characters are code points: more than 2 × TITLE_MAX code units is too long without counting them
  if (t.length > 2 * TITLE_MAX || [...t].length > TITLE_MAX) throw Errors.validation(`title must be at most ${TITLE_MAX} characters`);
  return t;
}

function parseDescription(v: unknown): string | null {
  if (v === null) return null;
  if (typeof v !== 'string') throw Errors.validation('description must be a string or null');
  if (v.length > DESCRIPTION_MAX) throw Errors.validation(`description must be at most ${DESCRIPTION_MAX} characters`);
  return v.trim() === '' ? null : v;
}

function parseStatus(v: unknown): string {
  if (typeof v !== 'string' || !v) throw Errors.validation('status must be a non-empty string');
  return v;
}

function parsePriority(v: unknown): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 3) throw Errors.validation('priority must be an integer from 0 to 3');
  return v;
}

function parseUuidOrNull(v: unknown, field: string): string | null {
  if (v === null) return null;
  if (!isUuid(v)) throw Errors.validation(`${field} must be a UUID or null`);
  return v.toLowerCase();
}

function parseUuidList(v: unknown, field: string): string[] {
  if (!Array.isArray(v)) throw Errors.validation(`${field} must be an array of UUIDs`);
  if (v.length > 100) throw Errors.validation(`${field} takes at most 100 entries`);
  const out: string[] = [];
  for (const x of v) {
    if (!isUuid(x)) throw Errors.validation(`${field} must be an array of UUIDs`);
    const id = x.toLowerCase();
    if (!out.includes(id)) out.push(id);
  }
  return out;
}

/** Strict `YYYY-MM-DD` that names a real calendar day (2024-02-30 is refused). */
export function parseDate(v: unknown, field: string): string | null {
  if (v === null) return null;
  const m = typeof v === 'string' ? DATE_RE.exec(v) : null;
  if (!m) throw Errors.validation(`${field} must be a date YYYY-MM-DD`);
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const dt = new Date(Date.UTC(y, mo - 1, d));
  if (y < 1 || dt.getUTCFullYear() !== y || dt.getUTCMonth() !== mo - 1 || dt.getUTCDate() !== d) {
    throw Errors.validation(`${field} is not a real calendar date`);
  }
  return v as string;
}

/**
 * Parses every issue field of one request body (create, bulk item or update). Every invalid field
 * is reported at once: one 400 whose `details` name each field (`error` joins the messages).
 */
export function parseIssueFields(raw: Record<string, unknown>, mode: 'create' | 'update'): ParsedIssueFields {
  const out: ParsedIssueFields = { recurrence: {}, hasRecurrence: false };
  const problems: FieldProblem[] = [];
  /** `parse()`, or undefined with its 400 kept in `problems` under `field`. */
  const field = <T>(name: string, parse: () => T): T | undefined => {
    try {
      return parse();
    } catch (e) {
      if (!(e instanceof DomainError) || e.status !== 400) throw e;
      problems.push({ field: name, message: e.message });
      return undefined;
    }
  };
  const title = raw.title;
  if (mode === 'create' || has(title)) out.title = field('title', () => parseTitle(title));
  if (has(raw.description)) out.description = field('description', () => parseDescription(raw.description));
  if (has(raw.status)) out.status = field('status', () => parseStatus(raw.status));
  if (has(raw.priority)) out.priority = field('priority', () => parsePriority(raw.priority));

  const ids = raw.assigneeIds;
  const one = raw.assigneeId;
  if (ids !== undefined) {
    out.assigneeIds = ids === null ? [] : field('assigneeIds', () => parseUuidList(ids, 'assigneeIds'));
    if (one !== undefined) {
      const primary = field('assigneeId', () => parseUuidOrNull(one, 'assigneeId'));
      if (primary && out.assigneeIds && out.assigneeIds[0] !== primary)
        problems.push({ field: 'assigneeId', message: 'assigneeId must be the first of assigneeIds; send one of them' });
    }
  } else if (one !== undefined) {
    const primary = field('assigneeId', () => parseUuidOrNull(one, 'assigneeId'));
    if (primary !== undefined) out.assigneeIds = primary ? [primary] : [];
  }

  const projectId = raw.projectId;
  if (projectId !== undefined) out.projectId = field('projectId', () => parseUuidOrNull(projectId, 'projectId'));
  const milestoneId = raw.milestoneId;
  if (milestoneId !== undefined) out.milestoneId = field('milestoneId', () => parseUuidOrNull(milestoneId, 'milestoneId'));
  const teamId = raw.teamId;
  if (teamId !== undefined) out.teamId = field('teamId', () => parseUuidOrNull(teamId, 'teamId'));
  const startDate = raw.startDate;
  if (startDate !== undefined) out.startDate = field('startDate', () => parseDate(startDate, 'startDate'));
  const dueDate = raw.dueDate;
  if (dueDate !== undefined) out.dueDate = field('dueDate', () => parseDate(dueDate, 'dueDate'));
  if (out.startDate && out.dueDate && out.startDate > out.dueDate) problems.push({ field: 'startDate', message: 'startDate must not be after dueDate' });

  const labelIds = raw.labelIds;
  if (labelIds !== undefined) {
    if (mode === 'update')
      problems.push({ field: 'labelIds', message: 'labelIds is accepted on create only; use the label endpoints (POST/DELETE /issues/{issueId}/labels)' });
    else out.labelIds = labelIds === null ? [] : field('labelIds', () => parseUuidList(labelIds, 'labelIds'));
  }
  const templateId = raw.templateId;
  if (templateId !== undefined) {
    if (mode === 'update') problems.push({ field: 'templateId', message: 'templateId is accepted on create only' });
    else if (!isUuid(templateId)) problems.push({ field: 'templateId', message: 'templateId must be a UUID' });
    else out.templateId = templateId;
  }
  if (problems.length) throw invalidRequest(problems);

  for (const key of RECURRENCE_INPUT_KEYS) {
    const v = raw[key];
    if (v !== undefined) {
      out.recurrence[key] = v;
      out.hasRecurrence = true;
    }
  }
  return out;
}

/** `dependencyReleaseMappings` and its aliases: `[{ dependencyId, releaseColumnId }]` (+ snake_case items). */
export function parseReleaseMappings(raw: Record<string, unknown>): Array<{ dependencyId: string; releaseColumnId: string }> | undefined {
  const v = raw.dependencyReleaseMappings;
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v)) throw Errors.validation('dependencyReleaseMappings must be an array of { dependencyId, releaseColumnId }');
  if (v.length > 500) throw Errors.validation('dependencyReleaseMappings takes at most 500 entries');
  return v.map((item) => {
    if (!item || typeof item !== 'object' || Array.isArray(item)) throw Errors.validation('dependencyReleaseMappings items must be objects');
    const dependencyId = item.dependencyId;
    const releaseColumnId = item.releaseColumnId;
    if (!isUuid(dependencyId) || !isUuid(releaseColumnId)) {
      throw Errors.validation('dependencyReleaseMappings items need dependencyId and releaseColumnId UUIDs');
    }
    return { dependencyId: dependencyId.toLowerCase(), releaseColumnId: releaseColumnId.toLowerCase() };
  });
}
