import { type ArgumentMetadata, Injectable, type PipeTransform, ValidationPipe, type ValidationError } from '@nestjs/common';
import { Errors } from '../errors/domain-error';
import { normalizeAliases, type SentNames } from './aliases';

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

/** Every constraint message, named by its path as the client sent it (aliases included). */
export function constraintMessages(errors: ValidationError[], parent = '', node?: unknown, sent?: SentNames): string[] {
  const out: string[] = [];
  for (const e of errors) {
    const name = (node !== null && typeof node === 'object' && sent?.get(node)?.get(e.property)) || e.property;
    const path = parent ? `${parent}.${name}` : name;
    if (e.constraints) out.push(...Object.values(e.constraints).map((m) => renameLeadingProperty(m, e.property, path)));
    const child = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[e.property] : undefined;
    if (e.children?.length) out.push(...constraintMessages(e.children, path, child, sent));
  }
  return out;
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
 * then DTO classes are checked with class-validator; unknown properties are stripped; every body
 * must be a JSON object. Failures are 400 with every problem in one readable message.
 */
@Injectable()
export class AppValidationPipe implements PipeTransform {
  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // Every JSON body: an object, not nested too deep; a missing body counts as {}.
    if (metadata.type === 'body' && ![String, Number, Boolean, Array].includes(metadata.metatype as never)) {
      if (value === undefined) value = {};
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        throw Errors.validation('Request body must be a JSON object');
      }
      if (jsonDepth(value) > MAX_BODY_DEPTH) throw Errors.validation(`Request body is nested more than ${MAX_BODY_DEPTH} levels deep`);
    }
    const type = metadata.metatype;
    if (!type || metadata.type === 'custom' || [String, Number, Boolean, Array, Object].includes(type as never)) return this.validate(value, metadata);
    const normalized = normalizeAliases(value, type);
    return this.validate(normalized.value, metadata, normalized.problems, normalized.sent);
  }

  private readonly inner = new ValidationPipe({
    whitelist: true,
    transform: true,
    forbidUnknownValues: false,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new ConstraintErrors(errors),
  });

  /** class-validator; messages name fields as sent, alias conflicts first, all in one 400. */
  private async validate(value: unknown, metadata: ArgumentMetadata, problems: string[] = [], sent?: SentNames): Promise<unknown> {
    let out: unknown;
    try {
      out = await this.inner.transform(value, metadata);
    } catch (err) {
      if (!(err instanceof ConstraintErrors)) throw err;
      throw Errors.validation([...problems, ...constraintMessages(err.errors, '', value, sent)].join('; ') || 'Invalid request');
    }
    if (problems.length) throw Errors.validation(problems.join('; '));
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
