import { Errors } from '../../common/errors/domain-error';
import { alias, isUuid } from '../../common/http/validation';
import { isCalendarDate } from '../../common/http/calendar-date';

/**
 * Field readers for initiative and target bodies: `undefined` = not sent; every wrong type or value
 * is one readable 400. Names list the camelCase and snake_case aliases (conflicting values 400).
 */
export const field = <T = unknown>(body: object, ...names: string[]): T | undefined => alias<T>(body, ...names);

export function text(body: object, names: string[], opts: { max: number; required?: boolean; nullable?: boolean }): string | null | undefined {
  const v = field(body, ...names);
  const name = names[0];
  if (v === undefined) {
    if (opts.required) throw Errors.validation(`${name} is required`);
    return undefined;
  }
  if (v === null && opts.nullable) return null;
  if (typeof v !== 'string') throw Errors.validation(`${name} must be a string${opts.nullable ? ' or null' : ''}`);
  const t = v.trim();
  if (!t) {
    if (opts.nullable) return null;
    throw Errors.validation(`${name} must not be blank`);
  }
  if (t.length > opts.max) throw Errors.validation(`${name} must be at most ${opts.max} characters`);
  return t;
}

export function oneOf<T extends string>(body: object, names: string[], values: readonly T[]): T | undefined {
  const v = field(body, ...names);
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) throw Errors.validation(`${names[0]} must be one of ${values.join(', ')}`);
  return v as T;
}

export function date(body: object, names: string[]): string | null | undefined {
  const v = field(body, ...names);
  if (v === undefined || v === null) return v as null | undefined;
  if (typeof v !== 'string' || !isCalendarDate(v)) throw Errors.validation(`${names[0]} must be a date YYYY-MM-DD or null`);
  return v;
}

export function uuidOrNull(body: object, names: string[]): string | null | undefined {
  const v = field(body, ...names);
  if (v === undefined || v === null) return v as null | undefined;
  if (!isUuid(v)) throw Errors.validation(`${names[0]} must be a UUID or null`);
  return v.toLowerCase();
}

export function num(body: object, names: string[], opts: { min?: number; max?: number; integer?: boolean } = {}): number | null | undefined {
  const v = field(body, ...names);
  if (v === undefined || v === null) return v as null | undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw Errors.validation(`${names[0]} must be a finite number or null`);
  if (opts.integer && !Number.isInteger(v)) throw Errors.validation(`${names[0]} must be a whole number`);
  if (opts.min !== undefined && v < opts.min) throw Errors.validation(`${names[0]} must be at least ${opts.min}`);
  if (opts.max !== undefined && v > opts.max) throw Errors.validation(`${names[0]} must be at most ${opts.max}`);
  return v;
}

/** A required identifier string in a body (`issue_id`, `milestone_id`, …): 400 when missing, not a string or blank. */
export function reference(body: object, ...names: string[]): string {
  const v = field(body, ...names);
  if (typeof v !== 'string' || !v.trim()) throw Errors.validation(`${names[0]} is required (a non-empty string)`);
  if (v.length > 500) throw Errors.validation(`${names[0]} must be at most 500 characters`);
  return v.trim();
}

/** A required UUID in a body (`project_id`, `kpi_id`, `initiative_id`): 400 when missing or malformed. */
export function uuidRef(body: object, ...names: string[]): string {
  const v = reference(body, ...names);
  if (!isUuid(v)) throw Errors.validation(`${names[0]} must be a UUID`);
  return v.toLowerCase();
}
