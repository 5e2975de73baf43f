import { randomUUID } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { startTestApp, type TestApp } from '../support/app';
import { addMember, bearer, newAgent, newOrg, newProject, newUser, type TestOrg, uniq } from '../support/factories';
import { reservedPort } from '../support/ports';
import { PNG_1x1 } from '../support/images';

/**
 * Malformed requests to every operation of the OpenAPI document: bodies (wrong types for each
 * property, null, huge strings, lone surrogates, NUL, deep nesting, arrays instead of objects,
 * invalid JSON, empty bodies, wrong content types), query values and path values (non-UUIDs,
 * `%00`, UTF-8-encoded surrogates, very long values, negative numbers, `KEY-0`, …), as the
 * organization's owner with real ids in the path and unauthenticated. Deterministic (a seeded
 * PRNG); 8 requests at a time. Every answer must be below 500 and arrive within 2 s (a request
 * over it is sent again alone, so a busy machine's queueing does not count), and the service must
 * still answer /health afterwards.
 */

/** Fixed, so every run sends the same requests; FUZZ_SEED explores other samples (then fix what it finds and add a test). */
const SEED = Number(process.env.FUZZ_SEED ?? 0x5eed_f022);
const CONCURRENCY = 8;
const MAX_LATENCY_MS = 2000;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
type Method = (typeof METHODS)[number];

/** mulberry32: a small deterministic PRNG (no Math.random in this file). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let r = Math.imul(a ^ (a >>> 15), 1 | a);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

interface Schema {
  type?: string | string[];
  $ref?: string;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  enum?: unknown[];
  format?: string;
}
interface Operation {
  parameters?: Array<{ name: string; in: 'path' | 'query' | 'header' }>;
  requestBody?: { content: Record<string, { schema: Schema }> };
}
interface Case {
  phase: number;
  op: string;
  method: Method;
  path: string;
  auth: boolean;
  contentType?: string;
  body?: Buffer;
  label: string;
}
interface Outcome {
  c: Case;
  status: number;
  ms: number;
  text: string;
}

/** Nested `{ "a": { "a": … } }` (or arrays) `depth` levels deep. */
const deepObject = (depth: number, leaf: unknown = 1): unknown => {
  let v: unknown = leaf;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
};
const deepArrayText = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

const HUGE = 'x'.repeat(100_000);
/** Strings every string field gets one of. */
const BAD_STRINGS: unknown[] = [
  '\ud800',
  'a\udc00b',
  'x\u0000y',
  HUGE,
  '',
  '   ',
  '😀'.repeat(3000),
  '<script>alert(1)</script>',
  "'; DROP TABLE issues; --",
  '../../etc/passwd',
  'KEY-0',
  '-1',
  '00000000-0000-0000-0000-000000000000',
  'not-a-uuid',
  '%00',
  '9999-99-99',
  'NaN',
];
/** Values of the wrong type for anything. */
const BAD_VALUES: unknown[] = [
  null,
  0,
  -1,
  1.5,
  1e308,
  -1e308,
  2 ** 63,
  true,
  false,
  {},
  [],
  [null],
  ['\ud800'],
  ['x\u0000'],
  { $ne: null },
  { '\ud800': 'x\u0000' },
  deepObject(40),
];
/** Path values: each replaces one real id of the path. */
const BAD_PATH = [
  '%00',
  '%ED%A0%80',
  'not-a-uuid',
  'a'.repeat(5000),
  '-1',
  'KEY-0',
  '00000000-0000-0000-0000-000000000000',
  '%2F',
  '..',
  'null',
  '%',
  '%F0%9F',
  '1e309',
  'ZZZZ-99999999999999999999',
];
/** Query values: each given to one declared query parameter. */
const BAD_QUERY = [
  '%00',
  '%ED%A0%80',
  'not-a-uuid',
  'q'.repeat(5000),
  '-1',
  '-99999999999999999999',
  '1e309',
  'KEY-0',
  '',
  '%',
  '%zz',
  '999999999999',
  '{"a":1}',
  "x'%3B--",
  'true',
  '2.5',
];

/** Body id fields named after another seeded id. */
const ID_ALIASES: Record<string, string> = {
  blockedByIssueId: 'secondIssueId',
  blockingIssueId: 'secondIssueId',
  parentId: 'issueId',
  attributedToIssueId: 'issueId',
  attributedToInitiativeId: 'initiativeId',
  assigneeId: 'memberId',
  ownerId: 'memberId',
  replyToCommentId: 'commentId',
  releaseColumnId: 'columnId',
};

const pick = <T>(rand: () => number, from: readonly T[], n: number): T[] => {
  const pool = [...from];
  const out: T[] = [];
  while (out.length < n && pool.length) out.push(pool.splice(Math.floor(rand() * pool.length), 1)[0]);
  return out;
};

describe('fuzz: malformed requests to every operation', () => {
  let t: TestApp;
  let org: TestOrg;
  let cookie: string;
  let base: string;
  let doc: { paths: Record<string, Partial<Record<Method, Operation>>>; components: { schemas: Record<string, Schema> } };
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    // A closed loopback port: KPI sync runs fail fast instead of waiting on DNS or a real host.
    t = await startTestApp({ SERVICE_KPI_SYNC_TEST_ORIGIN: `http://127.0.0.1:${await reservedPort()}` });
    org = await newOrg(t);
    const o = org.owner.http;
    const api = `/api/orgs/${org.id}`;
    const member = await newUser(t, 'fuzzmember');
    ids.memberId = await addMember(t, org, member, 'member');
    ids.invitationId = (
      await o
        .post(`${api}/members`)
        .send({ email: `${uniq('invitee')}@example.com` })
        .expect(201)
    ).body.invitation.id;
    const proj = await newProject(t, org);
    ids.projectId = proj.id;
    ids.projectKey = proj.key;
    const agent = await newAgent(t, org, { projectIds: [proj.id] });
    ids.agentId = agent.id;
    ids.keyId = agent.keyId;
    ids.columnId = (await o.get(`${api}/projects/${proj.id}/board-columns`).expect(200)).body.columns[0].id;
    ids.boardViewId = (await o.get(`${api}/projects/${proj.id}/board-views`).expect(200)).body.views[0].id;
    ids.customViewId = (await o.get(`${api}/projects/${proj.id}/custom-views`).expect(200)).body.views[0].id;
    ids.teamId = (
      await o
        .post(`${api}/teams`)
        .send({ name: uniq('team') })
        .expect(201)
    ).body.team.id;
    await o.post(`${api}/teams/${ids.teamId}/members`).send({ memberId: ids.memberId }).expect(201);
    ids.labelId = (
      await o
        .post(`${api}/labels`)
        .send({ name: uniq('label') })
        .expect(201)
    ).body.label.id;
    ids.milestoneId = (
      await o
        .post(`${api}/projects/${proj.id}/milestones`)
        .send({ name: uniq('ms') })
        .expect(201)
    ).body.milestone.id;
    ids.templateId = (
      await o
        .post(`${api}/templates`)
        .send({ name: uniq('tpl'), content: 'fuzz template' })
        .expect(201)
    ).body.template.id;
    ids.issueId = (await o.post(`${api}/issues`).send({ title: 'fuzz', projectId: proj.id }).expect(201)).body.issue.id;
    ids.secondIssueId = (await o.post(`${api}/issues`).send({ title: 'fuzz 2', projectId: proj.id }).expect(201)).body.issue.id;
    ids.dependencyId = (await o.post(`${api}/issues/${ids.issueId}/dependencies`).send({ blockedByIssueId: ids.secondIssueId }).expect(201)).body.dependency.id;
    ids.subtaskId = (await o.post(`${api}/issues/${ids.issueId}/subtasks`).send({ title: 'sub' }).expect(201)).body.subtask.id;
    ids.commentId = (await o.post(`${api}/issues/${ids.issueId}/comments`).send({ body: 'hello' }).expect(201)).body.comment.id;
    await o.post(`${api}/issues/${ids.issueId}/labels`).send({ labelId: ids.labelId }).expect(201);
    const artifact = (
      await o
        .post(`${api}/artifacts`)
        .send({ type: 'decision', title: 'fuzz', content: 'x', links: [{ target_type: 'project', target_id: proj.id }] })
        .expect(201)
    ).body;
    ids.artifactId = artifact.artifact.id;
    ids.revisionId = artifact.revision.id;
    ids.linkId = artifact.artifact.links[0].id;
    // an OAuth connection id nobody holds: the routes answer 404 for it like for a revoked one
    ids.connectionId = randomUUID();
    // the inbox (no operators configured here: 403) and signed attachment URLs (refused: 403)
    ids.emailId = randomUUID();
    // external references need a live provider proof to exist: the routes answer 404 for an unknown one
    ids.referenceId = randomUUID();
    ids.orgId = org.id;
    ids.attachmentId = (
      await o.post(`${api}/issues/${ids.issueId}/attachments`).attach('file', Buffer.from('hello'), { filename: 'a.txt' }).expect(201)
    ).body.attachment.id;
    ids.goalId = (
      await o
        .post(`${api}/goals`)
        .send({ title: uniq('goal') })
        .expect(201)
    ).body.goal.id;
    ids.kpiId = (
      await o
        .post(`${api}/kpis`)
        .send({ name: uniq('kpi') })
        .expect(201)
    ).body.kpi.id;
    ids.initiativeId = (
      await o
        .post(`${api}/initiatives`)
        .send({ title: uniq('ini') })
        .expect(201)
    ).body.initiative.id;
    const ini = `${api}/initiatives/${ids.initiativeId}`;
    ids.impactId = (await o.post(`${ini}/kpi-impacts`).send({ kpi_id: ids.kpiId }).expect(201)).body.kpi_impact.id;
    await o.post(`${ini}/projects`).send({ project_id: proj.id }).expect(201);
    await o.post(`${ini}/issues`).send({ issue_id: ids.issueId }).expect(201);
    await o.post(`${ini}/milestones`).send({ milestone_id: ids.milestoneId }).expect(201);
    ids.targetId = (
      await o
        .post(`${ini}/targets`)
        .send({ title: uniq('target') })
        .expect(201)
    ).body.target.id;
    ids.ruleId = (
      await o
        .post(`${api}/automation-rules`)
        .send({ name: uniq('rule'), trigger_event: 'issue.created', actions: [{ type: 'close_issue' }], enabled: false })
        .expect(201)
    ).body.rule.id;
    ids.webhookId = (
      await o
        .post(`/api/webhooks?orgId=${org.id}`)
        .send({ url: 'https://hooks.example.com/fuzz', events: ['issue.updated'] })
        .expect(201)
    ).body.webhook.id;
    ids.host = 'kpi.example.com';
    await o.post(`${api}/kpi-http-sync-policy`).send({ host: ids.host }).expect(201);
    ids.syncId = (
      await o
        .post(`${api}/kpis/${ids.kpiId}/http-syncs`)
        .send({
          name: uniq('sync'),
          schedule: 'daily',
          request_config: { method: 'GET', url: `https://${ids.host}/v1/metric` },
          extraction_config: { contentType: 'json', pointer: '/value', numeric: { mode: 'number', percentageScale: null } },
          freshness_config: {},
        })
        .expect(201)
    ).body.sync.id;
    // An issue change gives the webhook a delivery; the agent's assignment gives the owner a notification.
    await bearer(t, agent.key).patch(`${api}/issues/${ids.issueId}`).send({ assigneeId: org.ownerMemberId }).expect(200);
    ids.deliveryId = (await o.get(`/api/webhooks/${ids.webhookId}/deliveries`).expect(200)).body.deliveries[0].id;
    ids.notificationId = (await o.get(`${api}/notifications`).expect(200)).body.notifications[0].id;
    ids.invitationId = (
      await o
        .post(`${api}/members`)
        .send({ email: `${uniq('invitee')}@example.com`, role: 'member' })
        .expect(201)
    ).body.invitation.id;
    // Agents at work: an execution with an attention request, the agent's runner and a lease.
    const ag = bearer(t, agent.key);
    const work = (await o.post(`${api}/issues`).send({ title: 'fuzz work', projectId: proj.id, assigneeId: agent.memberId }).expect(201)).body.issue.id;
    ids.executionId = (
      await ag
        .post(`${api}/agent-executions`)
        .send({ issue_id: work, agent_member_id: agent.memberId, idempotency_key: uniq('fz') })
        .expect(201)
    ).body.execution.id;
    ids.itemId = (
      await ag
        .post(`${api}/agent-executions/${ids.executionId}/attention`)
        .send({ idempotency_key: uniq('fz'), title: 'fuzz', question: 'fuzz?' })
        .expect(201)
    ).body.attention_item.id;
    const runner = { instanceId: '5f0c1a52-7f1e-4c3a-9d59-1f1a2b3c4d5e', platform: 'linux', arch: 'x64', capabilities: ['git'], clientVersion: '1.0.0' };
    ids.runnerId = (await ag.put(`${api}/runners/self`).send({ runner }).expect(201)).body.runner.id;
    ids.leaseId = (
      await ag
        .post(`${api}/runner-leases/claim`)
        .send({ issueId: work, idempotencyKey: uniq('fz') })
        .expect(201)
    ).body.lease.id;

    // a current avatar: the public avatar route's {orgId}/{objectId}
    const avatar: string = (
      await o.post(`${api}/members/${ids.memberId}/avatar`).attach('file', PNG_1x1, { filename: 'a.png', contentType: 'image/png' }).expect(200)
    ).body.member.avatar_url;
    [ids.orgId, ids.objectId] = avatar.split('/').slice(-2);

    const login = await t.http().post('/api/auth/login').send({ email: org.owner.email, password: org.owner.password }).expect(200);
    cookie = String(login.headers['set-cookie'][0]).split(';')[0];
    doc = (await t.http().get('/api/openapi.json').expect(200)).body;
    const server = t.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 60_000);
  afterAll(() => t?.close());

  /** The real id a path parameter names (the same name means different things under different roots). */
  function realId(path: string, name: string): string {
    if (name === 'id') return path.startsWith('/api/webhooks') ? ids.webhookId : org.id;
    if (name === 'viewId') return path.includes('/custom-views/') ? ids.customViewId : ids.boardViewId;
    const v = ids[name];
    if (!v) throw new Error(`no seeded id for {${name}} in ${path}`);
    return v;
  }

  const resolve = (s: Schema | undefined): Schema => {
    let cur = s ?? {};
    for (let i = 0; i < 10; i++) {
      if (cur.$ref) cur = doc.components.schemas[cur.$ref.split('/').pop()!] ?? {};
      else if (cur.allOf?.length === 1) cur = cur.allOf[0];
      else if (cur.anyOf) cur = cur.anyOf.find((x) => x.type !== 'null') ?? {};
      else if (cur.oneOf) cur = cur.oneOf.find((x) => x.type !== 'null') ?? {};
      else break;
    }
    return cur;
  };
  const typeOf = (s: Schema): string => {
    const r = resolve(s);
    const ty = Array.isArray(r.type) ? r.type.find((x) => x !== 'null') : r.type;
    return ty ?? (r.properties ? 'object' : 'string');
  };

  /** A plausible value for a property, so a body reaches the checks past the first missing field. */
  function plausible(name: string, s: Schema, depth = 0): unknown {
    const r = resolve(s);
    if (r.enum?.length) return r.enum[0];
    const ty = typeOf(r);
    if (/(^|_)ids?$|Ids?$/.test(name) || r.format === 'uuid') {
      const key = name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()).replace(/Ids$/, 'Id');
      const id = ids[ID_ALIASES[key] ?? key] ?? ids.issueId;
      return ty === 'array' ? [id] : id;
    }
    if (ty === 'number' || ty === 'integer') return 1;
    if (ty === 'boolean') return true;
    if (ty === 'array') return depth > 2 ? [] : [plausible(name, r.items ?? {}, depth + 1)];
    if (ty === 'object') {
      if (!r.properties || depth > 2) return {};
      return Object.fromEntries(Object.entries(r.properties).map(([k, v]) => [k, plausible(k, v, depth + 1)]));
    }
    if (/date/i.test(name)) return '2030-01-01';
    return `fuzz ${name}`;
  }

  /** Malformed values for one property: null, a lone surrogate, NUL, a sample of wrong types and bad strings, nested bad values. */
  function badValuesFor(name: string, s: Schema, rand: () => number): unknown[] {
    const r = resolve(s);
    const ty = typeOf(r);
    const typed: Record<string, unknown[]> = {
      string: [HUGE, 12345, {}, ['x']],
      number: ['12', -1, 1.5, 1e308, 2 ** 63],
      integer: ['12', -1, 1.5, 1e308, 2 ** 63],
      boolean: ['true', 1, 'yes'],
      array: ['x', { a: 1 }, Array.from({ length: 1000 }, (_, i) => i), [[[]]]],
      object: ['x', [plausible(name, r)], deepObject(40)],
    };
    const out: unknown[] = [null, '\ud800', 'x\u0000y', ...pick(rand, typed[ty] ?? [], 1), ...pick(rand, [...BAD_VALUES, ...BAD_STRINGS], 2)];
    // nested: each property of an array item or object gets one bad value
    const nested = ty === 'array' ? resolve(r.items) : ty === 'object' ? r : undefined;
    if (nested?.properties) {
      for (const [k, v] of Object.entries(nested.properties)) {
        const bad = { ...(plausible(name, nested) as object), [k]: pick(rand, [null, '\ud800', 'x\u0000', 7, [], typeOf(v) === 'string' ? HUGE : 'x'], 1)[0] };
        out.push(ty === 'array' ? [bad] : bad);
      }
    }
    return out;
  }

  function buildCases(): Case[] {
    const rand = prng(SEED);
    const cases: Case[] = [];
    const json = (v: unknown) => Buffer.from(JSON.stringify(v));
    for (const [template, item] of Object.entries(doc.paths)) {
      for (const method of METHODS) {
        const op = item[method];
        if (!op) continue;
        const name = `${method.toUpperCase()} ${template}`;
        // Reads first, then writes, then deletes; deleting the organization and logging out come last.
        const phase =
          template === '/api/auth/logout'
            ? 4
            : template === '/api/orgs/{id}' && method === 'delete'
              ? 3
              : { get: 0, post: 1, put: 1, patch: 1, delete: 2 }[method];
        const params = op.parameters ?? [];
        const pathNames = params.filter((p) => p.in === 'path').map((p) => p.name);
        const queryNames = params.filter((p) => p.in === 'query').map((p) => p.name);
        const fill = (over: Record<string, string> = {}) =>
          template.replace(/\{([^}]+)\}/g, (_, n: string) => over[n] ?? encodeURIComponent(realId(template, n)));
        const realPath = fill();
        const add = (c: Omit<Case, 'phase' | 'op' | 'method' | 'auth'> & { auth?: boolean }) =>
          cases.push({ phase, op: name, method, auth: c.auth ?? true, ...c });

        const content = op.requestBody?.content ?? {};
        const jsonSchema = content['application/json']?.schema;
        const multipart = !!content['multipart/form-data'];

        // Bodies: one malformed property at a time on an otherwise plausible body, then whole-body shapes.
        if (jsonSchema) {
          const s = resolve(jsonSchema);
          const props = s.properties ?? {};
          const good = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, plausible(k, v)]));
          for (const [prop, ps] of Object.entries(props)) {
            for (const bad of badValuesFor(prop, ps, rand))
              add({ path: realPath, contentType: 'application/json', body: json({ ...good, [prop]: bad }), label: `body.${prop}` });
          }
          add({
            path: realPath,
            contentType: 'application/json',
            body: json(Object.fromEntries(Object.keys(props).map((k) => [k, '\ud800']))),
            label: 'body all surrogates',
          });
          add({
            path: realPath,
            contentType: 'application/json',
            body: json(Object.fromEntries(Object.keys(props).map((k) => [k, 'a\u0000']))),
            label: 'body all NUL',
          });
          add({ path: realPath, contentType: 'application/json', body: json({ ...good, '\ud800': 1, 'k\u0000': 2 }), label: 'body bad keys' });
          add({ path: realPath, contentType: 'application/json', body: json(good), label: 'body plausible' });
          if (rand() < 0.15)
            add({ path: realPath, contentType: 'application/json', body: json({ ...good, pad: 'y'.repeat(1_900_000) }), label: 'body 1.9 MB' });
          if (rand() < 0.1) add({ path: realPath, contentType: 'application/json', body: json({ pad: 'z'.repeat(3_000_000) }), label: 'body 3 MB' });
        }
        const shapes: Array<[string, string | undefined, string]> = [
          ['[]', 'application/json', 'array body'],
          ['[{}]', 'application/json', 'array of objects'],
          ['null', 'application/json', 'null body'],
          ['"text"', 'application/json', 'string body'],
          ['42', 'application/json', 'number body'],
          ['{', 'application/json', 'truncated JSON'],
          ["{'a':1}", 'application/json', 'invalid JSON'],
          ['{"a":1}}', 'application/json', 'trailing garbage'],
          ['', 'application/json', 'empty JSON body'],
          [JSON.stringify(deepObject(40)), 'application/json', 'object 40 deep'],
          [deepArrayText(5000), 'application/json', 'array 5000 deep'],
          ['{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}', 'application/json', 'prototype keys'],
          ['{"a":"\\ud800","b":["\\udfff"],"c":{"d":"\\u0000"}}', 'application/json', 'nested bad strings'],
          ['hello', 'text/plain', 'text/plain'],
          ['<a/>', 'application/xml', 'xml'],
          ['a=1&b=%00', 'application/x-www-form-urlencoded', 'form'],
          ['--b\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nx', 'multipart/form-data; boundary=b', 'unterminated multipart'],
          ['{"a":1}', 'application/json; charset=utf-16', 'odd charset'],
          ['{"a":1}', undefined, 'no content type'],
        ];
        const shapesFor = pick(rand, shapes, jsonSchema || multipart ? 7 : 3);
        for (const [text, ct, label] of shapesFor) add({ path: realPath, contentType: ct, body: Buffer.from(text), label });
        if (multipart) {
          add({ path: realPath, contentType: 'application/json', body: json({ file: 'x' }), label: 'JSON to multipart route' });
          add({ path: realPath, contentType: 'multipart/form-data', body: Buffer.from('x'), label: 'multipart without boundary' });
        }

        // Path values: every parameter gets the encoding attacks, plus a sample of the rest.
        for (const p of pathNames) {
          const values = [...BAD_PATH.slice(0, 2), ...pick(rand, [...BAD_PATH.slice(2), `${ids.projectKey}-0`, `${ids.projectKey}-1`], 3)];
          for (const v of values) add({ path: fill({ [p]: v }), label: `path.${p}=${v.slice(0, 20)}` });
        }
        // Query values: the same for declared parameters, and a few undeclared ones everywhere.
        for (const q of queryNames) {
          const values = [...BAD_QUERY.slice(0, 2), ...pick(rand, BAD_QUERY.slice(2), 3)];
          for (const v of values) add({ path: `${realPath}?${encodeURIComponent(q)}=${v}`, label: `query.${q}=${v.slice(0, 20)}` });
          add({ path: `${realPath}?${encodeURIComponent(q)}=1&${encodeURIComponent(q)}=2`, label: `query.${q} repeated` });
          add({ path: `${realPath}?${encodeURIComponent(q)}[a]=1`, label: `query.${q}[a]` });
        }
        for (const extra of ['zz=%00', ...pick(rand, ['zz=%ED%A0%80', '__proto__[x]=1', 'limit=-1&offset=-1', 'shape=envelope&limit=1e309', 'a[b][c]=1'], 2)]) {
          add({ path: `${realPath}?${extra}`, label: `query ${extra}` });
        }

        // Unauthenticated: the real path, a malformed body, a malformed query.
        add({ path: realPath, auth: false, label: 'anon' });
        add({ path: realPath, auth: false, contentType: 'application/json', body: Buffer.from('{"a":"\\ud800"}'), label: 'anon surrogate body' });
        add({ path: `${realPath}?${queryNames[0] ?? 'zz'}=%00`, auth: false, label: 'anon NUL query' });
      }
    }
    return cases;
  }

  function send(c: Case): Promise<Outcome> {
    return new Promise((resolvePromise) => {
      const started = performance.now();
      const headers: Record<string, string | number> = {};
      if (c.auth) headers.cookie = cookie;
      if (c.contentType) headers['content-type'] = c.contentType;
      if (c.body) headers['content-length'] = c.body.length;
      const [host, port] = base.split(':');
      const req = httpRequest({ host, port: Number(port), method: c.method.toUpperCase(), path: c.path, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () =>
          resolvePromise({ c, status: res.statusCode ?? 0, ms: performance.now() - started, text: Buffer.concat(chunks).toString().slice(0, 300) }),
        );
        res.on('error', (e) => resolvePromise({ c, status: 0, ms: performance.now() - started, text: String(e) }));
      });
      req.setTimeout(10_000, () => req.destroy(new Error('no answer within 10 s')));
      req.on('error', (e) => resolvePromise({ c, status: 0, ms: performance.now() - started, text: String(e) }));
      req.end(c.body);
    });
  }
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

  async function runAll(cases: Case[]): Promise<Outcome[]> {
    const out: Outcome[] = [];
    for (const phase of [...new Set(cases.map((c) => c.phase))].sort()) {
      const queue = cases.filter((c) => c.phase === phase);
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          for (let c = queue.shift(); c; c = queue.shift()) out.push(await send(c));
        }),
      );
    }
    return out;
  }

  it('no operation answers 5xx or takes over 2 s; the service still answers /health', async () => {
    const ops = Object.values(doc.paths).reduce((n, item) => n + METHODS.filter((m) => item[m]).length, 0);
    const cases = buildCases();
    const started = performance.now();
    const results = await runAll(cases);
    const elapsed = performance.now() - started;

    const histogram: Record<string, number> = {};
    for (const r of results) histogram[r.status] = (histogram[r.status] ?? 0) + 1;
    const slowest = results.reduce((a, b) => (b.ms > a.ms ? b : a));
    const failures = results.filter((r) => r.status >= 500 || r.status === 0);
    // A request over the limit while 8 ran at once is sent again alone: on a busy machine (CI beside
    // other jobs) queueing alone can pass 2 s, so only a request that is slow by itself counts.
    const slowUnderLoad = results.filter((r) => r.ms > MAX_LATENCY_MS);
    const slow: Outcome[] = [];
    for (const r of slowUnderLoad) {
      const again = await send(r.c);
      if (again.ms > MAX_LATENCY_MS || again.status >= 500 || again.status === 0) slow.push(again);
    }
    agent.destroy();
    const describe = (r: Outcome) =>
      `${r.status} ${Math.round(r.ms)}ms ${r.c.method.toUpperCase()} ${r.c.path.slice(0, 160)} [${r.c.label}${r.c.auth ? '' : ', anon'}] ${r.c.body?.toString().slice(0, 120) ?? ''} → ${r.text.slice(0, 160)}`;
    console.log(
      [
        `fuzz: ${results.length} requests over ${ops} operations in ${(elapsed / 1000).toFixed(1)} s (${CONCURRENCY} at a time)`,
        `max latency ${Math.round(slowest.ms)} ms (${slowest.c.method.toUpperCase()} ${slowest.c.path.slice(0, 100)} [${slowest.c.label}])`,
        `status histogram ${JSON.stringify(histogram)}`,
        ...failures.slice(0, 40).map((r) => `5xx/none: ${describe(r)}`),
        `over ${MAX_LATENCY_MS} ms among 8 at a time: ${slowUnderLoad.length}; of those, still over it when sent alone: ${slow.length}`,
        ...slow.slice(0, 20).map((r) => `slow: ${describe(r)}`),
      ].join('\n'),
    );
    expect(ops).toBeGreaterThan(150);
    expect(failures.map(describe)).toEqual([]);
    expect(slow.map(describe)).toEqual([]);
    const health = await t.http().get('/health');
    expect(health.status).toBe(200);
  }, 180_000);
});
