import { gunzipSync } from 'node:zlib';
import type { OpenAPIObject, OperationObject, ResponseObject } from '@nestjs/swagger';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

/**
 * Response conformance: every response a test app sends is checked against the OpenAPI document the
 * same app serves (`/api/openapi.json`). A Fastify `onSend` hook (installed by `startTestApp` only)
 * records each response; this module finds its operation (method and route pattern), the response
 * declared for its status, the media type and, for JSON, validates the body with Ajv (JSON Schema
 * 2020-12, the OpenAPI 3.1 dialect). Every problem is kept, and `test/support/openapi-conformance.setup.ts`
 * fails the test file in `afterAll` when any was found, so the document cannot drift from what the
 * API really answers.
 */

/**
 * Routes the document does not describe on purpose: the document itself, Swagger UI, and the
 * operator's Prometheus endpoint (`@ApiExcludeEndpoint`, not part of the API).
 */
const UNDOCUMENTED = [/^\/api\/docs(\/|$)/, /^\/api\/openapi\.json$/, /^\/metrics$/];

const METHODS = new Set(['get', 'put', 'post', 'patch', 'delete']);

/** `/api/orgs/:id/labels/:labelId` → `/api/orgs/{id}/labels/{labelId}` (the document's form). */
export const documentPath = (route: string): string => route.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

const pointer = (...parts: string[]) => '#/' + parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** `application/json; charset=utf-8` → `application/json`. */
const mediaType = (contentType: string | undefined) => (contentType ?? '').split(';')[0].trim().toLowerCase();

/** The declared media type matching `actual` (exact, then `type/*`, then `*\/*`). */
function matchMedia(declared: string[], actual: string): string | undefined {
  return declared.find((d) => d === actual) ?? declared.find((d) => d.endsWith('/*') && actual.startsWith(d.slice(0, -1))) ?? declared.find((d) => d === '*/*');
}

export interface RecordedResponse {
  method: string;
  /** Fastify's route pattern (`/api/orgs/:id`), undefined when no route matched. */
  route: string | undefined;
  url: string;
  status: number;
  contentType: string | undefined;
  contentEncoding: string | undefined;
  /** The payload as sent: a string, a Buffer, a stream or nothing. */
  payload: unknown;
}

const problems: string[] = [];
const seen = new Set<string>();

/** Problems found so far in this test file (each once). */
export function conformanceProblems(): readonly string[] {
  return problems;
}

/** Where problems go: this test file's list (each once), unless a test gives its own sink. */
export type ProblemSink = (key: string, message: string) => void;
const fileSink: ProblemSink = (key, message) => {
  if (seen.has(key)) return;
  seen.add(key);
  problems.push(message);
};

function bodyText(r: RecordedResponse): string | undefined {
  const p = r.payload;
  let bytes: Buffer | undefined;
  if (typeof p === 'string') bytes = Buffer.from(p, 'utf8');
  else if (Buffer.isBuffer(p)) bytes = p;
  else return undefined; // a stream (file download) or no body
  if (r.contentEncoding === 'gzip') bytes = gunzipSync(bytes);
  return bytes.toString('utf8');
}

const excerpt = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}…` : text);

/** Checks responses of one app against the document it serves. */
export class ResponseConformance {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, logger: false, validateSchema: false });
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(
    private readonly doc: OpenAPIObject,
    private readonly report: ProblemSink = fileSink,
  ) {
    addFormats(this.ajv);
    this.ajv.addSchema(doc as object, 'openapi.json');
  }

  /** Installs the recording hook (before the app is ready). Checks run when the response is sent. */
  install(fastify: FastifyInstance): void {
    fastify.addHook('onSend', async (req, reply, payload) => {
      const encoding = reply.getHeader('content-encoding');
      const type = reply.getHeader('content-type');
      this.check({
        method: req.method,
        route: req.routeOptions.url,
        url: req.url,
        status: reply.statusCode,
        contentType: typeof type === 'string' ? type : undefined,
        contentEncoding: typeof encoding === 'string' ? encoding : undefined,
        payload,
      });
      return payload;
    });
  }

  check(r: RecordedResponse): void {
    const method = r.method.toLowerCase();
    if (!METHODS.has(method)) return; // HEAD and OPTIONS are Fastify's own
    if (r.route === undefined) {
      // no route: Fastify's not-found handler, which must still answer in the error shape
      if (r.status !== 404) this.report(`unrouted ${r.status}`, `${r.method} ${r.url} (no route): status ${r.status}, expected 404`);
      return;
    }
    const path = documentPath(r.route);
    if (UNDOCUMENTED.some((re) => re.test(path))) return;
    const where = `${r.method} ${path} → ${r.status}`;
    const op = (this.doc.paths[path] as Record<string, OperationObject> | undefined)?.[method];
    if (!op) return this.report(`route ${method} ${path}`, `${r.method} ${path}: the route is not in the document`);
    const status = String(r.status);
    const declared = op.responses[status] ?? op.responses[`${status[0]}XX`] ?? op.responses.default;
    if (!declared) return this.report(`status ${where}`, `${where}: status not declared (declared: ${Object.keys(op.responses).join(', ')})`);
    const key = op.responses[status] ? status : op.responses[`${status[0]}XX`] ? `${status[0]}XX` : 'default';
    const content = (declared as ResponseObject).content;
    const text = bodyText(r);
    if (!content || Object.keys(content).length === 0) {
      if (text) this.report(`body ${where}`, `${where}: the document declares no body, got ${mediaType(r.contentType) || 'no content type'}: ${excerpt(text)}`);
      return;
    }
    const actual = mediaType(r.contentType);
    const media = matchMedia(Object.keys(content), actual);
    if (!media)
      return this.report(
        `media ${where} ${actual}`,
        `${where}: content type ${actual || '(none)'} not declared (declared: ${Object.keys(content).join(', ')})`,
      );
    if (actual !== 'application/json' || text === undefined) return;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return this.report(`json ${where}`, `${where}: the body is not JSON: ${excerpt(text)}`);
    }
    if (!content[media].schema) return;
    const validate = this.validator(pointer('paths', path, method, 'responses', key, 'content', media, 'schema'));
    if (validate(body)) return;
    const errors = (validate.errors ?? []).slice(0, 8).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} (${e.schemaPath})`);
    this.report(`schema ${where} ${errors.join()}`, `${where}: the body does not match the schema:\n    ${errors.join('\n    ')}\n    body: ${excerpt(text)}`);
  }

  private validator(ref: string): ValidateFunction {
    let v = this.validators.get(ref);
    if (!v) {
      v = this.ajv.compile({ $ref: `openapi.json${ref}` });
      this.validators.set(ref, v);
    }
    return v;
  }
}
