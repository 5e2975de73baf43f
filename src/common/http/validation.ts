import { type ArgumentMetadata, Injectable, type PipeTransform, ValidationPipe, type ValidationError } from '@nestjs/common';
import { Errors } from '../errors/domain-error';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (v: unknown): v is string => typeof v === 'string' && UUID_RE.test(v);

function flatten(errors: ValidationError[], parent = ''): string[] {
  const out: string[] = [];
  for (const e of errors) {
    const path = parent ? `${parent}.${e.property}` : e.property;
    if (e.constraints) out.push(...Object.values(e.constraints).map((m) => m.replace(new RegExp(`^${e.property}\\b`), path)));
    if (e.children?.length) out.push(...flatten(e.children, path));
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

/**
 * Global validation: DTO classes with class-validator; unknown properties are stripped; every
 * body must be a JSON object. Failures are 400 with every problem in one readable message.
 */
@Injectable()
export class AppValidationPipe implements PipeTransform {
  private readonly inner = new ValidationPipe({
    whitelist: true,
    transform: true,
    forbidUnknownValues: false,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => Errors.validation(flatten(errors).join('; ') || 'Invalid request'),
  });

  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // Every JSON body, whether bound to a DTO class or taken as a plain object (the issue routes
    // parse theirs field by field): an object, not nested too deep; a missing body counts as {}.
    if (metadata.type === 'body' && ![String, Number, Boolean, Array].includes(metadata.metatype as never)) {
      if (value === undefined) value = {};
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        throw Errors.validation('Request body must be a JSON object');
      }
      if (jsonDepth(value) > MAX_BODY_DEPTH) throw Errors.validation(`Request body is nested more than ${MAX_BODY_DEPTH} levels deep`);
    }
    return this.inner.transform(value, metadata);
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

/** First defined value among camelCase and snake_case aliases; conflicting values are a 400. */
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
