import { openApiDocumentWithoutServices } from '../../src/openapi-document';
import { startTestApp, type TestApp } from '../support/app';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
/** `/api/orgs/:id` and `/api/orgs/{id}` are the same path. */
const normalize = (p: string) => p.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** Paths other modules own; they must all be documented. */
const REQUIRED_PATHS = [
  '/api/auth/signup',
  '/api/auth/login',
  '/api/auth/me',
  '/api/orgs',
  '/api/orgs/{id}',
  '/api/orgs/{id}/members',
  '/api/orgs/{id}/agents',
  '/api/orgs/{id}/agents/workforce',
  '/api/orgs/{id}/projects',
  '/api/orgs/{id}/projects/{projectId}/board-columns',
  '/api/orgs/{id}/projects/{projectId}/members',
  '/api/orgs/{id}/billing',
];

describe('OpenAPI document and Swagger UI', () => {
  let t: TestApp;
  let doc: any;
  beforeAll(async () => {
    t = await startTestApp();
    doc = (await t.http().get('/api/openapi.json').expect(200)).body;
  });
  afterAll(() => t?.close());

  it('GET /api/openapi.json is public JSON: OpenAPI 3.1.0, version 1.0.0', async () => {
    const res = await t.http().get('/api/openapi.json').expect(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.info).toMatchObject({ version: '1.0.0', title: expect.any(String) });
    expect(Object.keys(res.body.paths).length).toBeGreaterThan(0);
  });

  it('declares the bearer schemes (sk_service_ API key, OAuth access token) and the session cookie', () => {
    const schemes: Record<string, any> = doc.components?.securitySchemes ?? {};
    const bearer = Object.values(schemes).filter((s) => s.type === 'http' && String(s.scheme).toLowerCase() === 'bearer');
    // the agent API key, and the OAuth access token of the MCP resource (issue 16)
    expect(bearer).toHaveLength(2);
    expect(schemes.apiKey.bearerFormat).toMatch(/sk_service_/);
    expect(schemes.oauth).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'opaque' });
    const cookie = Object.values(schemes).filter((s) => s.type === 'apiKey' && s.in === 'cookie');
    expect(cookie).toHaveLength(1);
    expect(cookie[0].name).toBe('sid');
    // Every security requirement refers to a declared scheme.
    const requirements = [...(doc.security ?? [])];
    for (const item of Object.values<any>(doc.paths)) for (const m of METHODS) if (item[m]?.security) requirements.push(...item[m].security);
    for (const req of requirements) for (const name of Object.keys(req)) expect(Object.keys(schemes)).toContain(name);
  });

  it('every operation documents a 2xx response and 4xx error responses', () => {
    const problems: string[] = [];
    let operations = 0;
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const m of METHODS) {
        const op = item[m];
        if (!op) continue;
        operations++;
        const codes = Object.keys(op.responses ?? {});
        if (!codes.some((c) => /^2(\d\d|XX)$/.test(c))) problems.push(`${m.toUpperCase()} ${path}: no 2xx response`);
        if (!codes.some((c) => /^4(\d\d|XX)$/.test(c))) problems.push(`${m.toUpperCase()} ${path}: no 4xx response`);
      }
    }
    expect(operations).toBeGreaterThan(3);
    expect(problems).toEqual([]);
  });

  it('error responses use the { error, code } schema; authenticated operations document 401', () => {
    expect(doc.components.schemas.Error).toMatchObject({ type: 'object', required: ['error'] });
    const me = doc.paths['/api/auth/me'].get;
    expect(me.responses['401'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    expect(me.responses['200']).toBeDefined();
  });

  it('public operations are marked as needing no credentials', () => {
    for (const path of ['/api/auth/signup', '/api/auth/login']) {
      const op = doc.paths[path].post;
      // `[]` or `[{}]`: no requirement, or only the empty one (= anonymous allowed).
      expect(Array.isArray(op.security)).toBe(true);
      expect(op.security.every((r: object) => Object.keys(r).length === 0)).toBe(true);
      expect(op.responses['400']).toBeDefined();
    }
  });

  it('lists the routes of every module', () => {
    const documented = new Set(Object.keys(doc.paths).map(normalize));
    const missing = REQUIRED_PATHS.filter((p) => !documented.has(p));
    expect(missing).toEqual([]);
  });

  it('the document dumped without services (npm run openapi:dump) is the served one', async () => {
    expect(JSON.parse(JSON.stringify(await openApiDocumentWithoutServices()))).toEqual(doc);
  });

  const operations = () =>
    Object.entries<any>(doc.paths).flatMap(([path, item]) => METHODS.filter((m) => item[m]).map((m) => ({ path, method: m, op: item[m] })));

  it('every path parameter is declared, typed and described; organization and UUID-piped ids are `format: uuid`', () => {
    const problems: string[] = [];
    for (const { path, method, op } of operations()) {
      for (const name of [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1])) {
        const p = (op.parameters ?? []).find((x: any) => x.in === 'path' && x.name === name);
        if (!p) problems.push(`${method} ${path}: {${name}} not declared`);
        else if (!p.schema?.type || !p.description || p.required !== true) problems.push(`${method} ${path}: {${name}} ${JSON.stringify(p)}`);
      }
      const org = (op.parameters ?? []).find((x: any) => x.in === 'path' && x.name === 'id');
      if (path.startsWith('/api/orgs/{id}') && org?.schema?.format !== 'uuid') problems.push(`${method} ${path}: {id} is not a UUID`);
    }
    expect(problems).toEqual([]);
    const ref = doc.paths['/api/orgs/{id}/issues/{issueId}'].get.parameters.find((p: any) => p.name === 'issueId');
    expect(ref.schema).toMatchObject({ type: 'string' }); // references: `KEY-12`, `#12`, a UUID
    expect(ref.schema.format).toBeUndefined();
    // routes addressed by any reference form (@IssueAddressed) say so; plain UUID ids stay UUIDs
    const comments = doc.paths['/api/orgs/{id}/issues/{issueId}/comments/{commentId}'].patch.parameters;
    expect(comments.find((p: any) => p.name === 'issueId').schema).toEqual(ref.schema);
    expect(comments.find((p: any) => p.name === 'commentId').schema).toEqual({ type: 'string', format: 'uuid' });
  });

  it('every response and every tag is described', () => {
    const undescribed = operations().flatMap(({ path, method, op }) =>
      Object.entries<any>(op.responses)
        .filter(([, r]) => !r.description)
        .map(([s]) => `${method} ${path} ${s}`),
    );
    expect(undescribed).toEqual([]);
    const used = new Set(operations().flatMap(({ op }) => op.tags ?? []));
    expect(doc.tags.map((t: any) => t.name).sort()).toEqual([...used].sort());
    expect(doc.tags.filter((t: any) => !t.description)).toEqual([]);
  });

  it('plan-limited writes declare 402 with the plan-limit body', () => {
    const limited = [
      ['post', '/api/orgs/{id}/projects'],
      ['patch', '/api/orgs/{id}/projects/{projectId}'],
      ['post', '/api/orgs/{id}/agents'],
      ['post', '/api/orgs/{id}/members'],
      ['post', '/api/invitations/{invitationId}/accept'],
      ['post', '/api/orgs/{id}/issues'],
      ['post', '/api/orgs/{id}/issues/bulk'],
      ['patch', '/api/orgs/{id}/issues/{issueId}'],
      ['delete', '/api/orgs/{id}/issues/{issueId}/archive'],
      ['post', '/api/orgs/{id}/issues/{issueId}/subtasks'],
      ['patch', '/api/orgs/{id}/issues/{issueId}/subtasks/{subtaskId}'],
    ];
    for (const [method, path] of limited) {
      expect([method, path, doc.paths[path][method].responses['402']?.content['application/json'].schema]).toEqual([
        method,
        path,
        { $ref: '#/components/schemas/PlanLimitError' },
      ]);
    }
    expect(doc.paths['/api/orgs/{id}/billing'].get.responses['402']).toBeUndefined();
    expect(doc.paths['/api/orgs/{id}/issues/{issueId}/dependencies'].post.responses['409'].description).toMatch(/dependency_exists/);
  });

  it('lists with `shape` answer the legacy shape or the envelope', () => {
    const lists = operations().filter(({ method, op }) => method === 'get' && op.parameters?.some((p: any) => p.in === 'query' && p.name === 'shape'));
    expect(lists.length).toBeGreaterThan(10);
    for (const { path, op } of lists) {
      const schema = op.responses['200'].content['application/json'].schema;
      const variants = (schema.oneOf ?? schema.anyOf).map((v: any) => v.$ref.split('/').pop());
      expect([path, variants.some((v: string) => v.endsWith('Envelope') || v === 'MemberDirectory')]).toEqual([path, true]);
    }
    const issues = doc.paths['/api/orgs/{id}/issues'].get.responses['200'].content['application/json'].schema;
    expect(issues.anyOf.map((v: any) => v.$ref.split('/').pop()).sort()).toEqual(
      ['CompactIssueListResponse', 'CompactIssueListResponseEnvelope', 'IssueListResponse', 'IssueListResponseEnvelope'].sort(),
    );
  });

  it('GET /api/docs serves the Swagger UI (HTML), without credentials', async () => {
    const res = await t.http().get('/api/docs').redirects(2).expect(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text).toMatch(/<html/i);
    expect(res.text).toMatch(/swagger/i);
  });
});
