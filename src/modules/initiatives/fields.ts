import { Errors } from '../../common/errors/domain-error';
import { isUuid } from '../../common/http/validation';
import { isCalendarDate } from '../../common/http/calendar-date';

/**
 * Field readers for initiative and target bodies: `undefined` = not sent; every wrong type or value
 * is one readable 400. Fields are read by their canonical name (the validation pipe maps the aliases).
 */
export const field = <T = unknown>(body: object, name: string): T | undefined => (body as Record<string, unknown>)[name] as T | undefined;

export function text(body: object, name: string, opts: { max: number; required?: boolean; nullable?: boolean }): string | null | undefined {
  const v = field(body, name);
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

export function oneOf<T extends string>(body: object, name: string, values: readonly T[]): T | undefined {
  const v = field(body, name);
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) throw Errors.validation(`${name} must be one of ${values.join(', ')}`);
  return v as T;
}

export function date(body: object, name: string): string | null | undefined {
  const v = field(body, name);
  if (v === undefined || v === null) return v as null | undefined;
  if (typeof v !== 'string' || !isCalendarDate(v)) throw Errors.validation(`${name} must be a date YYYY-MM-DD or null`);
  return v;
}

export function uuidOrNull(body: object, name: string): string | null | undefined {
  const v = field(body, name);
  if (v === undefined || v === null) return v as null | undefined;
  if (!isUuid(v)) throw Errors.validation(`${name} must be a UUID or null`);
  return v.toLowerCase();
}

export function num(body: object, name: string, opts: { min?: number; max?: number; integer?: boolean } = {}): number | null | undefined {
  const v = field(body, name);
  if (v === undefined || v === null) return v as null | undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw Errors.validation(`${name} must be a finite number or null`);
  if (opts.integer && !Number.isInteger(v)) throw Errors.validation(`${name} must be a whole number`);
  if (opts.min !== undefined && v < opts.min) throw Errors.validation(`${name} must be at least ${opts.min}`);
  if (opts.max !== undefined && v > opts.max) throw Errors.validation(`${name} must be at most ${opts.max}`);
  return v;
}

/** A required identifier string in a body (`issue_id`, `milestone_id`, …): 400 when missing, not a string or blank. */
export function reference(body: object, name: string): string {
  const v = field(body, name);
  if (typeof v !== 'string' || !v.trim()) throw Errors.validation(`${name} is required (a non-empty string)`);
  if (v.length > 500) throw Errors.validation(`${name} must be at most 500 characters`);
  return v.trim();
}

/** A required UUID in a body (`project_id`, `kpi_id`, `initiative_id`): 400 when missing or malformed. */
export function uuidRef(body: object, name: string): string {
  const v = reference(body, name);
  if (!isUuid(v)) throw Errors.validation(`${name} must be a UUID`);
  return v.toLowerCase();
}
