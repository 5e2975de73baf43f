import { gzipSync } from 'node:zlib';
import type { OpenAPIObject } from '@nestjs/swagger';
import { type RecordedResponse, ResponseConformance } from '../support/openapi-conformance';

/** The response checker the test apps use (test/support/openapi-conformance.ts): it must see each kind of mismatch. */
const doc = {
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths: {
    '/api/things/{id}': {
      get: {
        responses: {
          '200': { description: 'OK', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
          '404': { description: 'Not found', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        },
      },
      delete: { responses: { '204': { description: 'Gone' } } },
    },
    '/api/things/{id}/content': { get: { responses: { '200': { description: 'Bytes', content: { 'application/octet-stream': {} } } } } },
  },
  components: {
    schemas: {
      Thing: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string', format: 'uuid' }, name: { type: ['string', 'null'] } } },
      Error: { type: 'object', required: ['error'], properties: { error: { type: 'string' } } },
    },
  },
} as unknown as OpenAPIObject;

const ID = '4f6c1d2e-8a6b-4c1e-9d0a-2b7e5f3c9a10';
const ok = (over: Partial<RecordedResponse> = {}): RecordedResponse => ({
  method: 'GET',
  route: '/api/things/:id',
  url: `/api/things/${ID}`,
  status: 200,
  contentType: 'application/json; charset=utf-8',
  contentEncoding: undefined,
  payload: JSON.stringify({ id: ID, name: null }),
  ...over,
});

function problemsOf(...responses: RecordedResponse[]): string[] {
  const found: string[] = [];
  const c = new ResponseConformance(doc, (_key, message) => found.push(message));
  for (const r of responses) c.check(r);
  return found;
}

describe('ResponseConformance', () => {
  it('accepts responses that match: JSON (also gzipped), a declared media range, no body where none is declared', () => {
    expect(
      problemsOf(
        ok(),
        ok({ contentEncoding: 'gzip', payload: gzipSync(Buffer.from(JSON.stringify({ id: ID, name: 'n' }))) }),
        ok({ status: 404, payload: JSON.stringify({ error: 'Not found', code: 'not_found' }) }),
        ok({ method: 'DELETE', status: 204, contentType: undefined, payload: '' }),
        ok({ route: '/api/things/:id/content', contentType: 'application/octet-stream', payload: undefined }),
        ok({ route: '/api/docs/static/index.html', contentType: 'text/html' }),
        ok({ method: 'HEAD' }),
        ok({ route: undefined, url: '/nowhere', status: 404, payload: '{"error":"Not found"}' }),
      ),
    ).toEqual([]);
  });

  it('reports a body that does not match its schema, naming the field', () => {
    const [p] = problemsOf(ok({ payload: JSON.stringify({ id: 'not-a-uuid', name: 3 }) }));
    expect(p).toMatch(/GET \/api\/things\/\{id\} → 200: the body does not match the schema/);
    expect(p).toMatch(/\/id must match format "uuid"/);
    expect(p).toMatch(/\/name must be string,null/);
  });

  it('reports an undeclared status, an undeclared route, an undeclared media type, a body where none is declared and a non-JSON body', () => {
    expect(
      problemsOf(
        ok({ status: 409, payload: '{"error":"x"}' }),
        ok({ method: 'POST' }),
        ok({ contentType: 'text/plain' }),
        ok({ method: 'DELETE', status: 204, payload: '{"success":true}' }),
        ok({ payload: 'not json' }),
        ok({ route: undefined, url: '/nowhere', status: 500 }),
      ),
    ).toEqual([
      expect.stringMatching(/GET \/api\/things\/\{id\} → 409: status not declared \(declared: 200, 404\)/),
      expect.stringMatching(/POST \/api\/things\/\{id\}: the route is not in the document/),
      expect.stringMatching(/→ 200: content type text\/plain not declared/),
      expect.stringMatching(/DELETE \/api\/things\/\{id\} → 204: the document declares no body/),
      expect.stringMatching(/→ 200: the body is not JSON/),
      expect.stringMatching(/GET \/nowhere \(no route\): status 500/),
    ]);
  });
});
