import { type ArgumentMetadata, Injectable, type PipeTransform, ValidationPipe, type ValidationError } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { type DomainError, Errors } from '../errors/domain-error';
import { aliasesOf, type FieldProblem, normalizeAliases, type SentNames } from './aliases';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (v: unknown): v is string => typeof v === 'string' && UUID_RE.test(v);

const isWordChar = (c: string | undefined): boolean => c !== undefined && /\w/.test(c);

/**
 * `message` with its leading `property` renamed to `path` when the property is a whole word there
 * (what `/^property\b/` would match), without turning the property name, which the client may
 * choose, into a pattern.
 */
export function renameLeadingProperty(message: string, property: string, path: string): string {
  if (!message.startsWith(property)) return message;
  const n = property.length;
  return isWordChar(message[n - 1]) !== isWordChar(message[n]) ? path + message.slice(n) : message;
}

/** Every constraint problem, the field named by its path as the client sent it (aliases included). */
export function constraintProblems(errors: ValidationError[], parent = '', node?: unknown, sent?: SentNames): FieldProblem[] {
  const out: FieldProblem[] = [];
  for (const e of errors) {
    const name = (node !== null && typeof node === 'object' && sent?.get(node)?.get(e.property)) || e.property;
    const path = parent ? `${parent}.${name}` : name;
    for (const [kind, m] of Object.entries(e.constraints ?? {})) {
      out.push({
        field: path,
        message: kind === 'whitelistValidation' ? unknownFieldMessage(path, name, classOf(e.target)) : renameLeadingProperty(m, e.property, path),
      });
    }
    const child = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[e.property] : undefined;
    if (e.children?.length) out.push(...constraintProblems(e.children, path, child, sent));
  }
  return out;
}

/** Every constraint message (see constraintProblems). */
export const constraintMessages = (errors: ValidationError[], parent = '', node?: unknown, sent?: SentNames): string[] =>
  constraintProblems(errors, parent, node, sent).map((p) => p.message);

/** Longest field name compared for a suggestion (and shown whole in a message). */
const MAX_NAME = 64;
const shown = (name: string) => (name.length > MAX_NAME ? `${name.slice(0, MAX_NAME)}…` : name);

type Class = abstract new (...args: never[]) => unknown;

/** The fields a DTO class accepts: its validated properties (what the whitelist keeps), then their aliases. */
export function knownFields(type: Class): string[] {
  const canonical = [
    ...new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(type as never, '', true, false)
        .map((m) => m.propertyName),
    ),
  ];
  const aliases = [...aliasesOf(type).values()].flatMap((spec) => spec.names);
  return [...canonical, ...aliases.filter((a) => !canonical.includes(a))];
}

/** The DTO class of a validated instance (class-validator's error target). */
const classOf = (target: unknown): Class | undefined => {
  const type = (target as { constructor?: unknown } | null | undefined)?.constructor;
  return typeof type === 'function' && type !== Object ? (type as Class) : undefined;
};

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Unknown fields inside the nested objects a DTO declares with `@AliasesIn` (bulk items, actions,
 * scopes, mappings): class-validator does not walk them, the handlers read them field by field.
 * `value` is normalized (canonical names); paths name the fields as sent (`issues[0].projct`).
 */
export function nestedUnknownFields(value: unknown, type: Class, sent: SentNames | undefined, path = ''): FieldProblem[] {
  if (!isRecord(value)) return [];
  const out: FieldProblem[] = [];
  for (const [prop, spec] of aliasesOf(type)) {
    if (!spec.nested || value[prop] === undefined) continue;
    const nested = spec.nested();
    const known = knownFields(nested);
    const name = sent?.get(value)?.get(prop) ?? prop;
    const at = path ? `${path}.${name}` : name;
    const items = Array.isArray(value[prop]) ? (value[prop] as unknown[]).map((v, i) => [v, `${at}[${i}]`] as const) : [[value[prop], at] as const];
    for (const [item, itemPath] of items) {
      if (!isRecord(item)) continue;
      for (const key of Object.keys(item)) {
        if (!known.includes(key)) out.push({ field: `${itemPath}.${key}`, message: unknownFieldMessage(`${itemPath}.${key}`, key, nested) });
        if (out.length > MAX_PROBLEMS) return out;
      }
      out.push(...nestedUnknownFields(item, nested, sent, itemPath));
    }
  }
  return out;
}

/** Edit distance (insertions, deletions, substitutions) of two short strings. */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length];
}

/**
 * The known field closest to `name`, compared without case, `_` and `-`: the same letters, a
 * prefix either way, or a few edits away (at most a third of the longer name, at least 2). Ties go
 * to the field spelled most like the name as sent (`project_idd` → `project_id`, not `projectId`),
 * then to the earlier field (canonical names come before aliases).
 */
export function closestField(name: string, known: readonly string[]): string | undefined {
  if (name.length > MAX_NAME) return undefined;
  const norm = (s: string) => s.toLowerCase().replace(/[_-]/g, '');
  const n = norm(name);
  let best: { field: string; d: number; raw: number } | undefined;
  for (const field of known) {
    const f = norm(field);
    if (f.length > MAX_NAME) continue;
    const d = f === n ? 0 : distance(n, f);
    const near = d <= Math.max(2, Math.floor(Math.max(n.length, f.length) / 3)) || (n.length >= 3 && (f.startsWith(n) || n.startsWith(f)));
    if (!near) continue;
    const raw = distance(name, field);
    if (!best || d < best.d || (d === best.d && raw < best.raw)) best = { field, d, raw };
  }
  return best?.field;
}

/** "`project` is not a field; did you mean `projectId`?" (or the fields there are, when none is close). */
export function unknownFieldMessage(path: string, name: string, type: Class | undefined): string {
  const known = type ? knownFields(type) : [];
  const close = closestField(name, known);
  if (close) return `\`${shown(path)}\` is not a field; did you mean \`${close}\`?`;
  const canonical = known.slice(0, 30);
  return canonical.length
    ? `\`${shown(path)}\` is not a field (fields: ${canonical.join(', ')}${known.length > 30 ? ', …' : ''})`
    : `\`${shown(path)}\` is not a field`;
}

/** At most this many problems are listed in one 400 (a body can hold any number of unknown fields). */
export const MAX_PROBLEMS = 50;

/**
 * The 400 for validation problems: `error` joins every message, `details` lists `{ field, message }`
 * (field as sent; `null` for the body as a whole).
 */
export function invalidRequest(problems: FieldProblem[]): DomainError {
  const listed = problems.slice(0, MAX_PROBLEMS);
  if (problems.length > MAX_PROBLEMS) listed.push({ field: null, message: `and ${problems.length - MAX_PROBLEMS} more problems` });
  if (listed.length === 0) listed.push({ field: null, message: 'Invalid request' });
  return Errors.validation(listed.map((p) => p.message).join('; '), { details: listed });
}

export const MAX_BODY_DEPTH = 32;

/** Nesting depth of a JSON value, walked iteratively (a hostile body cannot overflow the stack here). */
export function jsonDepth(value: unknown, limit = MAX_BODY_DEPTH): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d > max) max = d;
    if (max > limit) return max;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
}

/** class-validator's failures, caught by the pipe to be named as the client sent them. */
class ConstraintErrors {
  constructor(readonly errors: ValidationError[]) {}
}

/**
 * Global validation: declared aliases are renamed to their canonical property first (aliases.ts),
 * then DTO classes are checked with class-validator; an unknown body field is an error (naming the
 * closest known field), unknown query keys are dropped; every body must be a JSON object. Failures
 * are one 400 with every problem: `error` joins the messages, `details` lists `{ field, message }`.
 */
@Injectable()
export class AppValidationPipe implements PipeTransform {
  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // Every JSON body: an object, not nested too deep; a missing body counts as {}.
    if (metadata.type === 'body' && ![String, Number, Boolean, Array].includes(metadata.metatype as never)) {
      if (value === undefined) value = {};
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        throw invalidRequest([{ field: null, message: 'Request body must be a JSON object' }]);
      }
      if (jsonDepth(value) > MAX_BODY_DEPTH) throw invalidRequest([{ field: null, message: `Request body is nested more than ${MAX_BODY_DEPTH} levels deep` }]);
    }
    const type = metadata.metatype;
    if (!type || metadata.type === 'custom' || [String, Number, Boolean, Array, Object].includes(type as never)) return this.validate(value, metadata);
    const normalized = normalizeAliases(value, type);
    const problems = [...normalized.problems];
    if (metadata.type === 'body') problems.push(...nestedUnknownFields(normalized.value, type, normalized.sent));
    return this.validate(normalized.value, metadata, problems, normalized.sent);
  }

  private readonly options = {
    whitelist: true,
    transform: true,
    forbidUnknownValues: false,
    transformOptions: { enableImplicitConversion: false },
    // the target tells which DTO an unknown field was sent to (its known fields); it never leaves the pipe
    validationError: { target: true, value: false },
    exceptionFactory: (errors: ValidationError[]) => new ConstraintErrors(errors),
  };
  /** Bodies: an unknown field is an error naming the closest known one. */
  private readonly body = new ValidationPipe({ ...this.options, forbidNonWhitelisted: true });
  /** Query strings and parameters: unknown keys are dropped (clients add their own, e.g. cache busters). */
  private readonly other = new ValidationPipe(this.options);

  /** class-validator; messages name fields as sent, alias conflicts first, all in one 400. */
  private async validate(value: unknown, metadata: ArgumentMetadata, problems: FieldProblem[] = [], sent?: SentNames): Promise<unknown> {
    let out: unknown;
    try {
      out = await (metadata.type === 'body' ? this.body : this.other).transform(value, metadata);
    } catch (err) {
      if (!(err instanceof ConstraintErrors)) throw err;
      throw invalidRequest([...problems, ...constraintProblems(err.errors, '', value, sent)]);
    }
    if (problems.length) throw invalidRequest(problems);
    return out;
  }
}

/** Route parameter that must be a UUID; anything else cannot name an existing record, so it is 404. */
@Injectable()
export class UuidParamPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!isUuid(value)) throw Errors.notFound();
    return value.toLowerCase();
  }
}

/**
 * First defined value among camelCase and snake_case aliases; conflicting values are a 400. For query
 * strings and free-form JSON configs only: body DTOs declare their aliases with `@Alias` (aliases.ts).
 */
export function alias<T>(dto: object, ...names: string[]): T | undefined {
  const rec = dto as Record<string, unknown>;
  let found: { name: string; value: unknown } | undefined;
  for (const n of names) {
    if (rec[n] === undefined) continue;
    if (found && JSON.stringify(found.value) !== JSON.stringify(rec[n])) {
      throw Errors.validation(`${found.name} and ${n} disagree; send one of them`);
    }
    found ??= { name: n, value: rec[n] };
  }
  return found?.value as T | undefined;
}
