import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiParam, ApiProperty, ApiQuery } from '@nestjs/swagger';
import { ISSUE_REFERENCE } from './refine';

/**
 * Small declarative decorators for the OpenAPI document. They only record facts; the document
 * builder (openapi.ts, openapi-refine.ts) turns them into parameters and responses in one place.
 */

export const API_ERRORS = 'openapi:errors';

/** Error statuses an operation may declare beyond the standard ones (openapi-refine.ts STANDARD_ERRORS). */
export type DeclaredErrorStatus = 401 | 402 | 403 | 405 | 409 | 413 | 422 | 429 | 503;

/** Declared error statuses: status → what it means here (the codes it carries), or '' for the standard text. */
export type DeclaredErrors = Partial<Record<DeclaredErrorStatus, string>>;

/**
 * Error responses an operation returns beyond the standard ones: `@ApiErrors(402)` (the standard
 * text), `@ApiErrors({ 409: '`dependency_exists`: the dependency already exists' })` (what the status
 * means on this operation; name the `code`s). On a controller class it applies to every route.
 */
export function ApiErrors(...entries: Array<DeclaredErrorStatus | DeclaredErrors>): MethodDecorator & ClassDecorator {
  const errors: DeclaredErrors = {};
  for (const e of entries) {
    if (typeof e === 'number') errors[e] ??= '';
    else Object.assign(errors, e);
  }
  return SetMetadata(API_ERRORS, errors);
}

/** 402 `PLAN_LIMIT_REACHED` (creates and anything else that adds to a plan-limited count). */
export const ApiPlanLimited = () => ApiErrors(402);

/**
 * `limit`, `offset` and the two list shapes (`shape=envelope` / `response_shape=cli`) of a list built by
 * `listResponse` (src/common/http/list.ts). The builder turns the declared legacy response into
 * `oneOf: [legacy, envelope]`.
 */
export function ApiPagedList(opts: { defaultLimit?: number; maxLimit?: number } = {}): MethodDecorator {
  const { defaultLimit = 25, maxLimit = 100 } = opts;
  return applyDecorators(
    ApiQuery({
      name: 'limit',
      required: false,
      schema: { type: 'integer', minimum: 1, default: defaultLimit },
      description: `Page size, default ${defaultLimit}; values above ${maxLimit} are clamped (the response reports the effective limit)`,
    }),
    ApiQuery({ name: 'offset', required: false, schema: { type: 'integer', minimum: 0, default: 0 }, description: 'Items to skip, default 0' }),
    ApiQuery({
      name: 'shape',
      required: false,
      enum: ['envelope', 'legacy'],
      description: '`envelope` returns `{ resource, items, total, limit, offset, nextOffset, truncated, hint }`',
    }),
    ApiQuery({ name: 'response_shape', required: false, enum: ['cli', 'legacy'], description: 'Alias: `cli` = `shape=envelope`' }),
  );
}

/**
 * A path parameter that takes an issue reference (resolved by IssueReferenceResolver), not only a
 * UUID: `12`, `#12`, `<ORG_PREFIX>-12`, `TSK-12`, `<PROJECT_KEY>-12` or the UUID.
 */
export const ApiIssueReferenceParam = (name: string) =>
  ApiParam({
    name,
    description: 'Issue reference: the UUID, the number (`12`, `#12`), `<ORG_PREFIX>-12`, `TSK-12` or `<PROJECT_KEY>-12`',
    schema: ISSUE_REFERENCE,
  });

/** Every JSON type: the schema of a value that may be any of them. */
const ANY_JSON_VALUE = ['string', 'number', 'boolean', 'object', 'array', 'null'].map((type) => ({ type }));

/**
 * A response property that holds any JSON value (`unknown` in TypeScript, which the Swagger plugin
 * would document as an object).
 */
export const ApiAnyValue = (options: { required?: boolean } = {}) => ApiProperty({ required: options.required ?? true, anyOf: ANY_JSON_VALUE });
