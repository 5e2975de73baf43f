import type { OpenAPIObject, OperationObject, ParameterObject, ReferenceObject, ResponseObject, SchemaObject } from '@nestjs/swagger';
import type { DeclaredErrors } from './decorators';
import type { RouteFacts } from './routes';

/**
 * The document's conventions, applied once to every operation after @nestjs/swagger has built it
 * (docs/DECISIONS.md, "OpenAPI document"): typed path parameters, the error responses each kind of
 * operation can return, the two list shapes, and a description on every response.
 */

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;
type Method = (typeof METHODS)[number];
const WRITES: ReadonlySet<Method> = new Set(['put', 'post', 'patch', 'delete']);

type Schema = SchemaObject | ReferenceObject;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const isRef = (s: unknown): s is ReferenceObject => typeof s === 'object' && s !== null && '$ref' in s;

const UUID: SchemaObject = { type: 'string', format: 'uuid' };
/** An issue reference: the UUID, `12`, `#12`, `<ORG_PREFIX>-12`, `TSK-12` or `<PROJECT_KEY>-12`. */
export const ISSUE_REFERENCE = { type: 'string', minLength: 1, examples: ['12', '#12', 'ENG-12', '4f6c1d2e-8a6b-4c1e-9d0a-2b7e5f3c9a10'] } as SchemaObject;
const nullable = (type: string) => ({ type: [type, 'null'] }) as unknown as SchemaObject;

/** Error bodies: `{ error, code, ...extra }` (src/common/errors). */
export const ERROR_SCHEMAS: Record<string, SchemaObject> = {
  Error: {
    type: 'object',
    required: ['error'],
    properties: {
      error: { type: 'string', description: 'Readable message' },
      code: { type: 'string', description: 'Stable machine-readable code' },
      details: {
        type: 'array',
        description: 'Validation errors (`validation_failed` from the request checks): every problem, `error` being their messages joined with `; `',
        items: {
          type: 'object',
          required: ['field', 'message'],
          properties: {
            field: { type: ['string', 'null'], description: 'The field as sent (`title`, `issues.0.title`); null for the body as a whole' },
            message: { type: 'string' },
          },
        },
      },
    },
    additionalProperties: true,
  },
  PlanLimitError: {
    type: 'object',
    description: 'A plan limit would be exceeded: nothing was written',
    required: ['error', 'code', 'resource', 'plan', 'limit', 'usage'],
    properties: {
      error: { type: 'string' },
      code: { type: 'string', enum: ['PLAN_LIMIT_REACHED'] },
      resource: { type: 'string', enum: ['activeProjects', 'humans', 'agents', 'activeIssues'], description: 'The limited count' },
      plan: { type: 'string' },
      limit: { type: 'integer' },
      usage: { type: 'integer', description: 'The count before this request' },
    },
  },
  RateLimitError: {
    type: 'object',
    required: ['error', 'code', 'retryAfterSeconds'],
    properties: {
      error: { type: 'string' },
      code: { type: 'string', enum: ['RATE_LIMITED', 'RATE_LIMIT_CHECK_FAILED'] },
      retryAfterSeconds: { ...nullable('integer'), description: 'Seconds until a retry can pass (also `Retry-After`); null when the check itself failed' },
      limit: { type: 'integer' },
      currentCount: { type: 'integer' },
    },
  },
};

interface ErrorKind {
  description: string;
  /** Which operations return it without declaring it: every one, authenticated ones, or writes. */
  on?: 'all' | 'authenticated' | 'writes';
  schema?: string;
}

/** Error statuses, with the operations that get them without a declaration (`on`). Others come from `@ApiErrors`. */
const ERRORS: Record<string, ErrorKind> = {
  '400': { on: 'all', description: 'Invalid request: a validation error, malformed JSON or a bad query parameter (`validation_failed`, `bad_request`)' },
  '401': { on: 'authenticated', description: 'Missing or invalid credentials: `{ "error": "Unauthorized", "code": "unauthorized" }`' },
  '402': { description: 'A plan limit would be exceeded (`PLAN_LIMIT_REACHED` with `resource`, `plan`, `limit`, `usage`)', schema: 'PlanLimitError' },
  '403': { on: 'authenticated', description: 'Authenticated but not allowed: readable without write access, wrong role or principal kind (`forbidden`)' },
  '404': { on: 'all', description: 'Not found, or not visible to the caller (concealed as not found); also a malformed id in the path' },
  '405': { description: 'The method is not allowed on this path (`method_not_allowed`; `Allow` names the allowed ones)' },
  '408': { on: 'writes', description: 'The request body stopped arriving in time (`request_timeout`); the connection is closed' },
  '409': { on: 'writes', description: 'A concurrent change conflicted (`conflict`); retry the request' },
  '413': { on: 'writes', description: 'The request body is too large (`payload_too_large`)' },
  '415': {
    on: 'writes',
    description: 'Unsupported request content type (`unsupported_media_type`): bodies are JSON unless the operation lists other request content types',
  },
  '422': { description: 'The request is well-formed but cannot be processed' },
  '429': { description: 'Too many requests (`RATE_LIMITED`, with `retryAfterSeconds`, `limit`, `currentCount` and `Retry-After`)', schema: 'RateLimitError' },
  '500': { on: 'all', description: 'Unexpected server error (`internal_error`, no internals in the body)' },
  '503': { description: 'Temporarily unavailable; retry later', schema: 'RateLimitError' },
};

const SUCCESS: Record<string, string> = { '200': 'OK', '201': 'Created', '202': 'Accepted', '204': 'No content' };

/** Applies the conventions to every operation of `doc`; `facts` comes from routes.ts. */
export function refineDocument(doc: OpenAPIObject, facts: Map<string, RouteFacts>): void {
  doc.components ??= {};
  doc.components.schemas ??= {};
  Object.assign(doc.components.schemas, ERROR_SCHEMAS);
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const route = facts.get(op.operationId ?? '');
      if (!route) throw new Error(`OpenAPI: no route facts for ${method.toUpperCase()} ${path} (${op.operationId})`);
      // @Public() routes carry an empty requirement: state "no authentication" as `security: []`.
      const isPublic = Array.isArray(op.security) && op.security.every((req) => Object.keys(req).length === 0);
      if (isPublic) op.security = [];
      typeParameters(op, path, route);
      addListShapes(doc, op);
      addErrors(op, method, isPublic, route.errors);
      describeResponses(doc, op);
    }
  }
}

/** `projectId` → `Project id`. */
const words = (name: string) => {
  const w = name
    .replace(/Id$/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return `${w.charAt(0).toUpperCase()}${w.slice(1)} id`;
};
const isEmpty = (s: unknown) => s === undefined || (typeof s === 'object' && s !== null && Object.keys(s).length === 0);

/** Descriptions of query parameters many operations share, when the controller gives none. */
const QUERY_DESCRIPTIONS: Record<string, string> = {
  limit: 'Page size (values above the maximum are clamped)',
  offset: 'Items to skip, default 0',
  orgId: 'Organization id',
};

/** Integer query parameters of the paging and graph options. */
const INTEGER_QUERIES: Record<string, SchemaObject> = {
  limit: { type: 'integer', minimum: 1 },
  offset: { type: 'integer', minimum: 0 },
  depth: { type: 'integer', minimum: 1 },
};

/**
 * Every `{name}` of the path is declared on the operation; ids that only UUIDs pass
 * (`UuidParamPipe`, the organization scope) are `format: uuid`; other path and query parameters
 * without a type are strings.
 */
function typeParameters(op: OperationObject, path: string, route: RouteFacts): void {
  const params = (op.parameters ??= []) as ParameterObject[];
  const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  for (const name of inPath) {
    let p = params.find((x) => x.in === 'path' && x.name === name);
    if (!p) {
      p = { name, in: 'path', required: true };
      params.push(p);
    }
    p.required = true;
    if (route.referenceParams.has(name)) p.schema = { ...ISSUE_REFERENCE };
    else if (route.uuidParams.has(name)) p.schema = { ...UUID };
    else if (isEmpty(p.schema) || (p.schema as SchemaObject).type === undefined) p.schema = { type: 'string', ...(p.schema as SchemaObject) };
    if (!p.description) p.description = name === 'id' && path.startsWith('/api/orgs/{id}') ? 'Organization id' : words(name);
  }
  // path parameters first, in path order; then the rest as declared
  const pathParams = inPath.map((n) => params.find((x) => x.in === 'path' && x.name === n)!);
  op.parameters = [...pathParams, ...params.filter((x) => x.in !== 'path')];
  for (const p of params) {
    if (p.in !== 'query') continue;
    if (route.uuidQueries.has(p.name)) p.schema = { ...UUID };
    else if (isEmpty(p.schema)) p.schema = INTEGER_QUERIES[p.name] ? { ...INTEGER_QUERIES[p.name] } : { type: 'string' };
    if (!p.description) p.description = QUERY_DESCRIPTIONS[p.name] ?? (/(Id|_id)$/.test(p.name) ? words(p.name.replace(/_id$/, 'Id')) : undefined);
  }
}

const component = (doc: OpenAPIObject, s: Schema | undefined): SchemaObject | undefined =>
  isRef(s) ? (doc.components?.schemas?.[s.$ref.replace('#/components/schemas/', '')] as SchemaObject | undefined) : s;

/** The array property of a legacy list schema `{ [key]: items, total, limit, offset }`, or undefined. */
function legacyListKey(schema: SchemaObject | undefined): string | undefined {
  const props = schema?.properties ?? {};
  if (!props.total || !props.limit || !props.offset) return undefined;
  const arrays = Object.entries(props).filter(([, s]) => (s as SchemaObject).type === 'array');
  return arrays.length === 1 ? arrays[0][0] : undefined;
}

const ENVELOPE_DESCRIPTION = 'The list envelope (`shape=envelope` or `response_shape=cli`)';

/**
 * Lists with a `shape` parameter answer in two shapes (src/common/http/list.ts): the legacy
 * `{ [key]: items, total, limit, offset }` declared by the controller, or the envelope. Each legacy
 * variant of the 200 response gets its envelope twin (`<Legacy>Envelope`), and the response becomes
 * one of them.
 */
function addListShapes(doc: OpenAPIObject, op: OperationObject): void {
  const params = (op.parameters ?? []) as ParameterObject[];
  const shape = params.find((p) => p.in === 'query' && p.name === 'shape');
  if (!shape) return;
  shape.schema = { type: 'string', enum: ['envelope', 'legacy'] };
  shape.description ||= '`envelope` returns `{ resource, items, total, limit, offset, nextOffset, truncated, hint }`';
  if (!params.some((p) => p.in === 'query' && p.name === 'response_shape')) {
    params.push({
      name: 'response_shape',
      in: 'query',
      required: false,
      description: 'Alias: `cli` = `shape=envelope`',
      schema: { type: 'string', enum: ['cli', 'legacy'] },
    });
  }
  const media = (op.responses['200'] as ResponseObject | undefined)?.content?.['application/json'];
  if (!media?.schema) return;
  const declared = media.schema as SchemaObject;
  const variants: Schema[] = declared.oneOf ?? declared.anyOf ?? [declared];
  const envelopes: Schema[] = [];
  for (const v of variants) {
    const key = legacyListKey(component(doc, v));
    if (!key || !isRef(v)) continue;
    const name = `${v.$ref.replace('#/components/schemas/', '')}Envelope`;
    doc.components!.schemas![name] ??= envelopeSchema(key, (component(doc, v)!.properties![key] as SchemaObject).items!);
    envelopes.push(ref(name));
  }
  if (!envelopes.length) return;
  // anyOf when legacy variants overlap (e.g. full and compact items); one of two otherwise
  media.schema = variants.length > 1 ? { anyOf: [...variants, ...envelopes] } : { oneOf: [...variants, ...envelopes] };
}

function envelopeSchema(resource: string, items: Schema): SchemaObject {
  return {
    type: 'object',
    description: ENVELOPE_DESCRIPTION,
    required: ['resource', 'items', 'total', 'limit', 'offset', 'nextOffset', 'truncated', 'hint'],
    properties: {
      resource: { type: 'string', enum: [resource] },
      items: { type: 'array', items },
      total: { type: 'integer', description: 'Every matching item' },
      limit: { type: 'integer', description: 'The effective page size' },
      offset: { type: 'integer' },
      nextOffset: { ...nullable('integer'), description: 'The offset of the next page, null on the last' },
      truncated: { type: 'boolean', description: 'More items follow' },
      hint: { ...nullable('string'), description: 'How to get the next page, null on the last' },
    },
  };
}

const errorContent = (schema = 'Error') => ({ 'application/json': { schema: ref(schema) } });

/**
 * The error responses: the standard ones for the operation's kind (`on`) and those declared with
 * `@ApiErrors`; a response declared by a controller decorator keeps its description and gets the
 * error body when it has none.
 */
function addErrors(op: OperationObject, method: Method, isPublic: boolean, declared: DeclaredErrors): void {
  for (const [status, kind] of Object.entries(ERRORS)) {
    const extra = (declared as Record<string, string | undefined>)[status];
    const applies = extra !== undefined || kind.on === 'all' || (kind.on === 'authenticated' && !isPublic) || (kind.on === 'writes' && WRITES.has(method));
    const existing = op.responses[status] as ResponseObject | undefined;
    if (!applies && !existing) continue;
    // a copy: a class-level decorator's response object is shared by every operation of the controller
    const response: ResponseObject = existing ? { ...existing } : { description: '' };
    // a decorator's own text first, then what @ApiErrors adds, then the general meaning
    const added = extra && !response.description.includes(extra) ? extra : undefined;
    const parts = [response.description, added, existing?.description ? undefined : kind.description].filter((p): p is string => !!p);
    response.description = parts.map((p) => p.replace(/\.$/, '')).join('. ');
    if (!response.content || Object.keys(response.content).length === 0) response.content = errorContent(kind.schema);
    op.responses[status] = response;
  }
}

/** `{ a, b, c }` of an object schema (its property names), for response descriptions. */
function outline(doc: OpenAPIObject, s: Schema | undefined): string | undefined {
  const schema = component(doc, s);
  if (!schema) return undefined;
  const variants = schema.oneOf ?? schema.anyOf;
  if (variants) {
    const parts = variants.map((v) => (component(doc, v)?.description === ENVELOPE_DESCRIPTION ? 'the list envelope' : outline(doc, v)));
    return [...new Set(parts.filter(Boolean))].join(' or ');
  }
  if (schema.type === 'array') return `a list of ${outline(doc, schema.items) ?? 'items'}`;
  const keys = Object.keys(schema.properties ?? {});
  if (!keys.length) return undefined;
  return `\`{ ${keys.slice(0, 8).join(', ')}${keys.length > 8 ? ', …' : ''} }\``;
}

/** A description on every response: success responses without one say what their body holds. */
function describeResponses(doc: OpenAPIObject, op: OperationObject): void {
  for (const [status, r] of Object.entries(op.responses)) {
    const response = r as ResponseObject;
    if (response.description) continue;
    const label = SUCCESS[status] ?? `Status ${status}`;
    const content = response.content ?? {};
    const media = Object.keys(content)[0];
    const body = media === 'application/json' ? outline(doc, content[media].schema) : media;
    response.description = body ? `${label}: ${body}` : label;
  }
}
