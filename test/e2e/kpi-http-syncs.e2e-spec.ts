import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import type request from 'supertest';
import { getQueueToken } from '@nestjs/bull';
import { Test } from '@nestjs/testing';
import type { Queue } from 'bull';
import { Clock } from '../../src/common/clock/clock';
import { KpiSyncScheduler } from '../../src/modules/kpi-syncs/kpi-sync.scheduler';
import { KPI_SYNC_QUEUE, KPI_SYNC_SWEEP } from '../../src/modules/kpi-syncs/kpi-syncs.constants';
import { WorkerModule } from '../../src/worker.module';
import { KpiSyncSweepProcessor } from '../../src/modules/kpi-syncs/kpi-sync-sweep.processor';
import { KpiSyncLimits, KpiSyncRunner } from '../../src/modules/kpi-syncs/kpi-sync-runner.service';
import { KpiSyncRunsRepository } from '../../src/modules/kpi-syncs/kpi-sync-runs.repository';
import { KpiSyncsRepository } from '../../src/modules/kpi-syncs/kpi-syncs.repository';
import { startTestApp, type TestApp } from '../support/app';
import { addMember, bearer, newAgent, newUser, type TestOrg, type TestUser, uniq } from '../support/factories';
import { workTrackingWorld } from '../support/issues';
import { TxRunner } from '../../src/database/tx-runner';

/**
 * KPI HTTP syncs over HTTP against the real PostgreSQL and Redis, with runs reaching a local
 * provider through the egress client (SERVICE_KPI_SYNC_TEST_ORIGIN sends the configured path to
 * it). Covers the allowlist, the configuration rules, the who-may-do-what matrix, secrets
 * (write-only, encrypted, never echoed or logged), the publish gates, runs and their failure
 * modes, snapshots with provenance, and the scheduled sweep with an injected clock.
 */

const HOST = `metrics-${randomBytes(3).toString('hex')}.example.com`;
const SECRET = `sk_live_TOPSECRET_${randomBytes(12).toString('hex')}`;
const BODY_MARKER = 'PROVIDER_BODY_MARKER';

interface Hit {
  path: string;
  headers: http.IncomingHttpHeaders;
}

/** The provider: one behaviour per path. */
/** Runs before the provider answers `/v1/vanishing` (set by a test). */
let beforeVanishing: () => Promise<void> = async () => undefined;

function startProvider(): Promise<{ server: http.Server; port: number; hits: Hit[] }> {
  const hits: Hit[] = [];
  const json = (res: http.ServerResponse, body: unknown, type = 'application/json; charset=utf-8') => {
    res.writeHead(200, { 'content-type': type });
    res.end(JSON.stringify(body));
  };
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    hits.push({ path, headers: req.headers });
    const now = new Date().toISOString();
    switch (path) {
      case '/v1/metric':
        return json(res, { marker: BODY_MARKER, data: { value: 42, recorded_at: now } });
      case '/v1/string-number':
        return json(res, { data: { value: '17.5' } });
      case '/v1/fraction':
        return json(res, { data: { value: 0.4235 } });
      case '/v1/huge-fraction':
        return json(res, { data: { value: 1e307 } });
      case '/v1/points':
        return json(res, { data: { value: 42.35 } });
      case '/v1/text':
        return json(res, { data: { value: 'twelve' } });
      case '/v1/vendor-json':
        return json(res, { data: { value: 5 } }, 'application/vnd.api+json');
      case '/v1/html':
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end(`<html>${BODY_MARKER}</html>`);
      case '/v1/broken':
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(`{ "value": ${BODY_MARKER}`);
      case '/v1/redirect':
        res.writeHead(302, { location: '/v1/metric' });
        return res.end();
      case '/v1/big':
        return json(res, { data: { value: 1 }, pad: 'x'.repeat(4096) });
      case '/v1/slow':
        setTimeout(() => json(res, { data: { value: 1 } }), 3000).unref();
        return;
      case '/v1/unavailable':
        res.writeHead(503, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ error: BODY_MARKER }));
      case '/v1/vanishing':
        void beforeVanishing().then(() => json(res, { data: { value: 1 } }));
        return;
      case '/v1/stale':
        return json(res, { data: { value: 9, recorded_at: '2020-01-01T00:00:00Z' } });
      default:
        res.writeHead(404, { 'content-type': 'application/json' });
        return res.end('{}');
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port, hits })));
}

class FixedClock extends Clock {
  constructor(public at: Date) {
    super();
  }
  now(): Date {
    return this.at;
  }
}

type Client = { get: (p: string) => request.Test; post: (p: string) => request.Test; patch: (p: string) => request.Test; put: (p: string) => request.Test };

describe('KPI HTTP syncs (e2e)', () => {
  let t: TestApp;
  let provider: Awaited<ReturnType<typeof startProvider>>;
  let org: TestOrg;
  let other: TestOrg;
  let admin: TestUser;
  let member: TestUser;
  let guest: TestUser;
  let agentAdmin: Client;
  let agentMember: Client;
  let guestAgent: Client;
  let proj: { id: string };
  let kpi: string;
  let projKpi: string;
  let otherKpi: string;
  let limits: KpiSyncLimits;
  const seen: string[] = [];
  const logged: string[] = [];
  const LEVELS = ['log', 'warn', 'error', 'debug', 'verbose', 'fatal'] as const;
  const originals = new Map<(typeof LEVELS)[number], unknown>();

  const policy = () => `/api/orgs/${org.id}/kpi-http-sync-policy`;
  const review = () => `/api/orgs/${org.id}/kpi-http-syncs`;
  const syncs = (kpiId = kpi, orgId = org.id) => `/api/orgs/${orgId}/kpis/${kpiId}/http-syncs`;
  const one = (syncId: string, kpiId = kpi) => `${syncs(kpiId)}/${syncId}`;
  const config = (req: Record<string, unknown> = {}, ext: Record<string, unknown> = {}, over: Record<string, unknown> = {}) => ({
    name: uniq('sync'),
    schedule: 'daily',
    request_config: { method: 'GET', url: `https://${HOST}/v1/metric`, headers: { Authorization: { secretRef: 'TOKEN', format: 'Bearer {value}' } }, ...req },
    extraction_config: { contentType: 'json', pointer: '/data/value', numeric: { mode: 'number', percentageScale: null }, ...ext },
    freshness_config: {},
    ...over,
  });
  /** Keeps every response text, to prove the secret never appears in one. */
  const keep = <T extends request.Response>(res: T): T => {
    seen.push(res.text ?? '');
    return res;
  };
  const owner = (): Client => org.owner.http as unknown as Client;

  async function insertKpi(orgId: string, extra: { projectId?: string; sourceType?: string } = {}): Promise<string> {
    const id = randomUUID();
    await t.db.query(`INSERT INTO kpis (org_id, id, name, project_id, unit, source_type, source_config) VALUES ($1, $2, $3, $4, 'count', $5, $6)`, [
      orgId,
      id,
      uniq('kpi'),
      extra.projectId ?? null,
      extra.sourceType ?? 'api_poll',
      extra.sourceType === 'formula' ? { formula: 'goal_linked_issue_completion', done_statuses: ['done'] } : null,
    ]);
    return id;
  }

  async function draft(body = config(), kpiId = kpi): Promise<any> {
    return keep(await owner().post(syncs(kpiId)).send(body).expect(201)).body.sync;
  }

  /** Draft → secret → validate → dry run → publish. */
  async function published(body = config(), kpiId = kpi): Promise<any> {
    const s = await draft(body, kpiId);
    keep(
      await owner()
        .put(`${one(s.id, kpiId)}/secrets`)
        .send({ name: 'TOKEN', value: SECRET })
        .expect(200),
    );
    keep(
      await owner()
        .post(`${one(s.id, kpiId)}/validate`)
        .expect(200),
    );
    const dry = keep(
      await owner()
        .post(`${one(s.id, kpiId)}/dry-run`)
        .expect(200),
    ).body;
    expect(dry.run.status).toBe('success');
    return keep(
      await owner()
        .post(`${one(s.id, kpiId)}/publish`)
        .expect(200),
    ).body.sync;
  }

  /** A dry run of a fresh draft (on its own KPI) with the secret set. */
  const dryRun = async (req: Record<string, unknown>, ext: Record<string, unknown> = {}, freshness: Record<string, unknown> = {}) => {
    const k = await insertKpi(org.id);
    const s = await draft(config(req, ext, { freshness_config: freshness }), k);
    keep(
      await owner()
        .put(`${one(s.id, k)}/secrets`)
        .send({ name: 'TOKEN', value: SECRET })
        .expect(200),
    );
    return keep(
      await owner()
        .post(`${one(s.id, k)}/dry-run`)
        .expect(200),
    ).body.run;
  };

  beforeAll(async () => {
    provider = await startProvider();
    t = await startTestApp({ SERVICE_KPI_SYNC_TEST_ORIGIN: `http://127.0.0.1:${provider.port}` });
    limits = t.app.get(KpiSyncLimits);
    // every application log line (Nest Logger instances; request lines carry only method, url and status)
    for (const level of LEVELS) {
      const original = Logger.prototype[level];
      originals.set(level, original);
      Logger.prototype[level] = function (this: Logger, ...args: unknown[]) {
        logged.push(JSON.stringify(args));
        return (original as (...a: unknown[]) => void).apply(this, args);
      } as never;
    }
    let guestId: string;
    ({ org, other, member, guest, guestId, proj } = await workTrackingWorld(t));
    void guestId;
    admin = await newUser(t, 'admin');
    await addMember(t, org, admin, 'admin');
    agentAdmin = bearer(t, (await newAgent(t, org, { role: 'admin' })).key);
    agentMember = bearer(t, (await newAgent(t, org, { role: 'member' })).key);
    guestAgent = bearer(t, (await newAgent(t, org, { projectIds: [proj.id] })).key);
    kpi = await insertKpi(org.id);
    projKpi = await insertKpi(org.id, { projectId: proj.id });
    otherKpi = await insertKpi(other.id);
    keep(await admin.http.post(policy()).send({ host: HOST }).expect(201));
  });
  beforeEach(async () => {
    // a KPI holds at most 20 syncs: start each test with the shared KPI's list empty
    await t.db.query('DELETE FROM kpi_http_syncs WHERE org_id = $1 AND kpi_id = $2', [org.id, kpi]);
  });
  afterEach(() => {
    limits.timeoutMs = 10_000;
    limits.maxResponseBytes = 1024 * 1024;
  });
  afterAll(async () => {
    for (const [level, fn] of originals) Logger.prototype[level] = fn as never;
    provider?.server.closeAllConnections();
    provider?.server.close();
    await t?.close();
  });

  describe('allowlist policy', () => {
    it('GET shows the hosts to non-guests (humans and agents); POST adds one exact host (human owners/admins)', async () => {
      const g = keep(await member.http.get(policy()).expect(200)).body;
      expect(g.policy.allowed_hosts).toContain(HOST);
      expect(g.policy.hosts.find((h: any) => h.host === HOST)).toEqual({
        host: HOST,
        created_by_member_id: expect.any(String),
        created_at: expect.any(String),
      });
      await agentMember.get(policy()).expect(200);
      const h = `Extra-${randomBytes(2).toString('hex')}.Example.org`;
      const r = keep(
        await org.owner.http
          .post(policy())
          .send({ host: ` ${h} ` })
          .expect(201),
      ).body;
      expect(r.host.host).toBe(h.toLowerCase());
      expect(r.policy.allowed_hosts).toContain(h.toLowerCase());
      const dup = await admin.http.post(policy()).send({ hostname: h.toLowerCase() }).expect(409);
      expect(dup.body.code).toBe('host_already_allowlisted');
    });

    it.each([
      ['scheme', 'https://a.example.com'],
      ['port', 'a.example.com:8443'],
      ['path', 'a.example.com/v1'],
      ['wildcard', '*.example.com'],
      ['IP literal', '203.0.113.7'],
      ['IPv6 literal', '[2001:db8::1]'],
      ['localhost', 'localhost'],
      ['.local', 'printer.local'],
      ['single label', 'intranet'],
      ['not a string', 42],
      ['missing', undefined],
    ])('POST refuses a %s host with a clear 400', async (_n, host) => {
      const r = await org.owner.http.post(policy()).send({ host }).expect(400);
      expect(r.body.error).toMatch(/host/);
    });

    it('401, 404 for non-members, 403 for members, guests and agents (even admins) on POST; guests 403 on GET', async () => {
      await t.http().get(policy()).expect(401);
      await t.http().post(policy()).send({ host: 'x.example.com' }).expect(401);
      await other.owner.http.get(policy()).expect(404);
      await other.owner.http.post(policy()).send({ host: 'x.example.com' }).expect(404);
      await member.http.post(policy()).send({ host: 'x.example.com' }).expect(403);
      await guest.http.post(policy()).send({ host: 'x.example.com' }).expect(403);
      await guest.http.get(policy()).expect(403);
      await guestAgent.get(policy()).expect(403);
      await agentAdmin.post(policy()).send({ host: 'x.example.com' }).expect(403);
      await agentMember.post(policy()).send({ host: 'x.example.com' }).expect(403);
    });
  });

  describe('drafts and configuration rules', () => {
    it('an owner creates a draft: 201 { sync } with every field', async () => {
      const body = config();
      const r = keep(await org.owner.http.post(syncs()).send(body).expect(201));
      expect(r.body.sync).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        kpi_id: kpi,
        name: body.name,
        status: 'draft',
        schedule: 'daily',
        redacted: false,
        request_config: { method: 'GET', url: `https://${HOST}/v1/metric`, headers: { Authorization: { secretRef: 'TOKEN', format: 'Bearer {value}' } } },
        extraction_config: { contentType: 'json', pointer: '/data/value', numeric: { mode: 'number', percentageScale: null } },
        freshness_config: {},
        config_version: 1,
        config_hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
        secret_refs: ['TOKEN'],
        validated: false,
        validated_at: null,
        dry_run_passed: false,
        dry_run_at: null,
        published_at: null,
        disabled_at: null,
        last_run_at: null,
        last_run_status: null,
        created_by_member_id: org.ownerMemberId,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      // same configuration, same hash
      const again = await draft({ ...config(), name: 'again' });
      expect(again.config_hash).toBe(r.body.sync.config_hash);
    });

    it('camelCase keys, defaults (schedule daily, freshness {}) and the X-API-Key placeholder are accepted', async () => {
      const s = keep(
        await admin.http
          .post(syncs())
          .send({
            name: 'camel',
            requestConfig: { url: `https://${HOST}/v1/metric`, headers: { 'x-api-key': { secret_ref: 'KEY' } } },
            extractionConfig: { pointer: '/data/value', numeric: { mode: 'percentage', percentageScale: 100 } },
          })
          .expect(201),
      ).body.sync;
      expect(s.schedule).toBe('daily');
      expect(s.request_config.headers).toEqual({ 'X-API-Key': { secretRef: 'KEY', format: '{value}' } });
      expect(s.extraction_config.numeric).toEqual({ mode: 'percentage', percentageScale: 100 });
      expect(s.freshness_config).toEqual({});
    });

    it.each([
      ['an http URL', config({ url: `http://${HOST}/v1/metric` }), /https/],
      ['a non-GET method', config({ method: 'POST' }), /GET/],
      ['a query string', config({ url: `https://${HOST}/v1/metric?range=7d` }), /query string/],
      ['a fragment', config({ url: `https://${HOST}/v1/metric#top` }), /fragment/],
      ['credentials in the URL', config({ url: `https://u:p@${HOST}/v1/metric` }), /credentials/],
      ['a non-default port', config({ url: `https://${HOST}:8443/v1/metric` }), /port/],
      ['an unallowlisted host', config({ url: 'https://other.example.com/v1/metric' }), /allowlist/],
      ['a subdomain of an allowlisted host', config({ url: `https://www.${HOST}/v1/metric` }), /allowlist/],
      ['an IP literal', config({ url: 'https://203.0.113.9/v1/metric' }), /IP address/],
      ['localhost', config({ url: 'https://localhost/v1/metric' }), /public DNS/],
      ['a request body', config({ body: '{"q":1}' }), /request body/],
      ['an inline bearer secret', config({ headers: { Authorization: 'Bearer sk-live-inline-secret-123' } }), /inline secret/],
      ['an inline API key', config({ headers: { 'X-API-Key': 'abc' } }), /inline secret/],
      ['another header', config({ headers: { Cookie: { secretRef: 'TOKEN', format: '{value}' } } }), /only Authorization/],
      ['another Authorization format', config({ headers: { Authorization: { secretRef: 'TOKEN', format: 'Basic {value}' } } }), /Bearer \{value\}/],
      ['a credential in the path', config({ url: `https://${HOST}/v1/ghp_abcdefghijklmnopqrstuvwxyz123/metric` }), /credential/],
      ['a non-JSON content type', config({}, { contentType: 'csv' }), /json/],
      ['an invalid JSON pointer', config({}, { pointer: 'data.value' }), /RFC 6901/],
      ['a percentage without scale', config({}, { numeric: { mode: 'percentage', percentageScale: null } }), /percentageScale/],
      ['a number with a scale', config({}, { numeric: { mode: 'number', percentageScale: 1 } }), /percentageScale/],
      ['an unknown numeric mode', config({}, { numeric: { mode: 'currency' } }), /mode/],
      ['an unknown schedule', config({}, {}, { schedule: 'every5s' }), /schedule/],
      ['a missing name', config({}, {}, { name: undefined }), /name/],
      ['freshness without a provider timestamp', config({}, {}, { freshness_config: { maxAgeHours: 2 } }), /providerTimestampPointer/],
      ['no request_config', { name: 'x', extraction_config: config().extraction_config }, /request_config is required/],
    ])('refuses %s with a clear 400 (draft and PUT validation alike)', async (_n, body, re) => {
      const before = (await t.db.query('SELECT count(*)::int AS n FROM kpi_http_syncs WHERE org_id = $1', [org.id]))[0].n;
      const r = keep(await org.owner.http.post(syncs()).send(body).expect(400));
      expect(r.body.error).toMatch(re);
      expect(r.body.code).toBe('validation_failed');
      if ((body as { name?: unknown }).name !== undefined) {
        // PUT validates the configuration (name optional there)
        const p = keep(await agentMember.put(syncs()).send(body).expect(400));
        expect(p.body.error).toMatch(re);
      }
      expect((await t.db.query('SELECT count(*)::int AS n FROM kpi_http_syncs WHERE org_id = $1', [org.id]))[0].n).toBe(before);
    });

    it('PUT validates a proposed configuration without storing it; machine actors may use it', async () => {
      const before = (await t.db.query('SELECT count(*)::int AS n FROM kpi_http_syncs WHERE org_id = $1', [org.id]))[0].n;
      const r = keep(await agentMember.put(syncs()).send(config()).expect(200)).body;
      expect(r).toEqual({
        valid: true,
        config_hash: expect.stringMatching(/^sha256:/),
        request_config: expect.objectContaining({ method: 'GET', url: `https://${HOST}/v1/metric` }),
        extraction_config: expect.objectContaining({ pointer: '/data/value' }),
        freshness_config: {},
        secret_refs: ['TOKEN'],
      });
      await agentAdmin.put(syncs()).send(config()).expect(200);
      await admin.http.put(syncs()).send(config()).expect(200);
      expect((await t.db.query('SELECT count(*)::int AS n FROM kpi_http_syncs WHERE org_id = $1', [org.id]))[0].n).toBe(before);
      await member.http.put(syncs()).send(config()).expect(403);
      await guest.http.put(syncs(projKpi)).send(config()).expect(403);
      await t.http().put(syncs()).send(config()).expect(401);
      await other.owner.http.put(syncs()).send(config()).expect(404);
    });

    it('who may draft: human owners/admins and org agents; not human members or guests; 404 for unreadable or foreign KPIs', async () => {
      const a = keep(await agentAdmin.post(syncs()).send(config()).expect(201)).body.sync;
      const m = keep(await agentMember.post(syncs()).send(config()).expect(201)).body.sync;
      expect(a.status).toBe('draft');
      expect(m.created_by_member_id).toBeTruthy();
      await admin.http.post(syncs()).send(config()).expect(201);
      await member.http.post(syncs()).send(config()).expect(403);
      await guest.http.post(syncs(projKpi)).send(config()).expect(403); // readable project KPI
      await guestAgent.post(syncs(projKpi)).send(config()).expect(403);
      await guest.http.post(syncs()).send(config()).expect(404); // organization-level KPI: not readable by guests
      await org.owner.http.post(syncs(otherKpi)).send(config()).expect(404);
      await org.owner.http.post(syncs(randomUUID())).send(config()).expect(404);
      await org.owner.http.post(`/api/orgs/${org.id}/kpis/not-a-uuid/http-syncs`).send(config()).expect(404);
      await other.owner.http.post(syncs()).send(config()).expect(404);
      await t.http().post(syncs()).send(config()).expect(401);
      const formula = await insertKpi(org.id, { sourceType: 'formula' });
      const f = await org.owner.http.post(syncs(formula)).send(config()).expect(409);
      expect(f.body.code).toBe('kpi_not_syncable');
    });

    it('the host must be allowlisted at draft time for agents too', async () => {
      const r = await agentMember
        .post(syncs())
        .send(config({ url: 'https://not-listed.example.com/v1/metric' }))
        .expect(400);
      expect(r.body.error).toMatch(/allowlist/);
    });

    it('malformed bodies are 400, never 500', async () => {
      await org.owner.http.post(syncs()).set('content-type', 'application/json').send('[1,2]').expect(400);
      await org.owner.http.post(syncs()).send({ name: 'x', request_config: 'https://x', extraction_config: [] }).expect(400);
      await org.owner.http
        .post(syncs())
        .send({ name: 'x', request_config: config().request_config, requestConfig: { url: 'https://y' }, extraction_config: config().extraction_config })
        .expect(400);
      // the secret value pasted where its name belongs: refused, and not echoed
      const pasted = await org.owner.http
        .post(syncs())
        .send(config({ headers: { Authorization: { secretRef: SECRET, format: 'Bearer {value}' } } }))
        .expect(400);
      expect(pasted.body.error).toMatch(/secretRef looks like a credential/);
      expect(pasted.text).not.toContain(SECRET);
      // malformed percent-encoding in the path (decodeURIComponent throws on it)
      for (const path of ['/v1/%zz', '/v1/%E0%A4%A', '/%']) {
        const r = await org.owner.http
          .post(syncs())
          .send(config({ url: `https://${HOST}${path}` }))
          .expect(400);
        expect(r.body.error).toMatch(/percent-encoding/);
        await org.owner.http
          .put(syncs())
          .send(config({ url: `https://${HOST}${path}` }))
          .expect(400);
      }
    });
  });

  describe('reading syncs', () => {
    it('owners/admins (humans and agents) see configuration; members get redacted rows; the drafter sees its own', async () => {
      const s = await draft();
      const mine = keep(await agentMember.post(syncs()).send(config()).expect(201)).body.sync;
      const full = keep(await admin.http.get(one(s.id)).expect(200)).body.sync;
      expect(full.request_config.url).toBe(`https://${HOST}/v1/metric`);
      expect((await agentAdmin.get(one(s.id)).expect(200)).body.sync.redacted).toBe(false);
      const red = keep(await member.http.get(one(s.id)).expect(200));
      expect(red.body.sync).toMatchObject({ id: s.id, status: 'draft', redacted: true, config_version: 1 });
      expect(red.text).not.toContain(HOST);
      expect(red.text).not.toContain('/v1/metric');
      expect(red.body.sync.request_config).toBeUndefined();
      expect((await agentMember.get(one(s.id)).expect(200)).body.sync.redacted).toBe(true);
      expect((await agentMember.get(one(mine.id)).expect(200)).body.sync.redacted).toBe(false);
      const list = keep(await member.http.get(syncs()).expect(200));
      expect(list.body).toMatchObject({ total: expect.any(Number), limit: 25, offset: 0 });
      expect(list.body.syncs.find((x: any) => x.id === s.id).redacted).toBe(true);
      expect(list.text).not.toContain(HOST);
      const env = await org.owner.http.get(`${syncs()}?shape=envelope&limit=2`).expect(200);
      expect(env.body).toMatchObject({ resource: 'syncs', limit: 2, items: expect.any(Array) });
      await org.owner.http.get(`${syncs()}?limit=-1`).expect(400);
    });

    it('401, 403 for guests, 404 for foreign or unknown KPIs and syncs', async () => {
      const s = await draft();
      const ps = await draft(config(), projKpi);
      await t.http().get(syncs()).expect(401);
      await t.http().get(one(s.id)).expect(401);
      await guest.http.get(syncs(projKpi)).expect(403);
      await guest.http.get(one(ps.id, projKpi)).expect(403);
      await guest.http.get(syncs()).expect(404);
      await other.owner.http.get(one(s.id)).expect(404);
      await org.owner.http.get(one(s.id, projKpi)).expect(404); // sync of another KPI
      await org.owner.http.get(one(randomUUID())).expect(404);
      await org.owner.http.get(`${syncs()}/not-a-uuid`).expect(404);
      await org.owner.http.get(syncs(otherKpi)).expect(404);
    });
  });

  describe('updates', () => {
    it('name and schedule change in place; a configuration change bumps config_version and the hash, and a published sync returns to draft', async () => {
      const s = await published();
      const named = keep(await admin.http.patch(one(s.id)).send({ name: 'renamed', schedule: 'hourly' }).expect(200)).body.sync;
      expect(named).toMatchObject({ name: 'renamed', schedule: 'hourly', status: 'published', config_version: 1, config_hash: s.config_hash });
      const same = keep(await admin.http.patch(one(s.id)).send({ freshness_config: {} }).expect(200)).body.sync;
      expect(same).toMatchObject({ status: 'published', config_version: 1 });
      const changed = keep(
        await admin.http
          .patch(one(s.id))
          .send({ extraction_config: { pointer: '/data/other', numeric: { mode: 'number', percentageScale: null } } })
          .expect(200),
      ).body.sync;
      expect(changed).toMatchObject({ status: 'draft', config_version: 2, published_at: null, validated: false, dry_run_passed: false });
      expect(changed.config_hash).not.toBe(s.config_hash);
      expect(changed.request_config.url).toBe(`https://${HOST}/v1/metric`); // other parts kept
      const pub = await admin.http.post(`${one(s.id)}/publish`).expect(409);
      expect(pub.body.code).toBe('sync_not_validated');
    });

    it('only human owners/admins edit; invalid edits are 400; empty edits are 400', async () => {
      const s = await draft();
      await agentAdmin.patch(one(s.id)).send({ name: 'x' }).expect(403);
      await agentMember.patch(one(s.id)).send({ name: 'x' }).expect(403);
      await member.http.patch(one(s.id)).send({ name: 'x' }).expect(403);
      await t.http().patch(one(s.id)).send({ name: 'x' }).expect(401);
      await other.owner.http.patch(one(s.id)).send({ name: 'x' }).expect(404);
      await org.owner.http.patch(one(randomUUID())).send({ name: 'x' }).expect(404);
      await org.owner.http.patch(one(s.id)).send({}).expect(400);
      await org.owner.http.patch(one(s.id)).send({ name: '' }).expect(400);
      await org.owner.http.patch(one(s.id)).send({ request_config: null }).expect(400);
      const r = await org.owner.http
        .patch(one(s.id))
        .send({ request_config: { url: `https://${HOST}/v1/metric?x=1` } })
        .expect(400);
      expect(r.body.error).toMatch(/query string/);
    });
  });

  describe('secrets', () => {
    it('are write-only: responses carry metadata only, the database only ciphertext', async () => {
      const s = await draft();
      const before = keep(await org.owner.http.get(`${one(s.id)}/secrets`).expect(200)).body;
      expect(before).toEqual({ secrets: [{ name: 'TOKEN', configured: false, referenced: true, updated_at: null }] });
      const put = keep(
        await admin.http
          .put(`${one(s.id)}/secrets`)
          .send({ name: 'TOKEN', value: SECRET })
          .expect(200),
      );
      expect(put.body.secret).toEqual({ name: 'TOKEN', configured: true, referenced: true, updated_at: expect.any(String) });
      expect(put.text).not.toContain(SECRET);
      keep(
        await admin.http
          .put(`${one(s.id)}/secrets`)
          .send({ secretRef: 'SPARE', value: 'spare-value' })
          .expect(200),
      );
      const meta = keep(await org.owner.http.get(`${one(s.id)}/secrets`).expect(200)).body.secrets;
      expect(meta).toEqual([
        { name: 'SPARE', configured: true, referenced: false, updated_at: expect.any(String) },
        { name: 'TOKEN', configured: true, referenced: true, updated_at: expect.any(String) },
      ]);
      const rows = await t.db.query('SELECT ciphertext, nonce, key_id FROM kpi_http_sync_secrets WHERE org_id = $1 AND sync_id = $2', [org.id, s.id]);
      expect(rows).toHaveLength(2);
      for (const r of rows) expect(Buffer.from(r.ciphertext).toString('latin1')).not.toContain(SECRET.slice(0, 12));
      keep(
        await admin.http
          .put(`${one(s.id)}/secrets`)
          .send({ name: 'SPARE', value: null })
          .expect(200),
      );
      expect((await org.owner.http.get(`${one(s.id)}/secrets`).expect(200)).body.secrets.map((x: any) => x.name)).toEqual(['TOKEN']);
      const detail = keep(await org.owner.http.get(one(s.id)).expect(200));
      expect(detail.text).not.toContain(SECRET);
    });

    it('bad names and values are 400; only human owners/admins read or write them', async () => {
      const s = await draft();
      await org.owner.http
        .put(`${one(s.id)}/secrets`)
        .send({ name: '1bad', value: 'x' })
        .expect(400);
      await org.owner.http
        .put(`${one(s.id)}/secrets`)
        .send({ name: 'TOKEN' })
        .expect(400);
      await org.owner.http
        .put(`${one(s.id)}/secrets`)
        .send({ name: 'TOKEN', value: 'a\nb' })
        .expect(400);
      await org.owner.http
        .put(`${one(s.id)}/secrets`)
        .send({ name: 'TOKEN', value: '' })
        .expect(400);
      await org.owner.http
        .put(`${one(s.id)}/secrets`)
        .send({ name: 'TOKEN', value: 'tök€n' })
        .expect(400);
      await org.owner.http
        .put(`${one(s.id)}/secrets`)
        .send({ name: 'TOKEN', value: 7 })
        .expect(400);
      await org.owner.http
        .put(`${one(s.id)}/secrets`)
        .send({ name: 'TOKEN', value: 'x'.repeat(4097) })
        .expect(400);
      for (const c of [agentAdmin, agentMember, member.http as unknown as Client]) {
        await c.get(`${one(s.id)}/secrets`).expect(403);
        await c
          .put(`${one(s.id)}/secrets`)
          .send({ name: 'TOKEN', value: 'x' })
          .expect(403);
      }
      await t
        .http()
        .get(`${one(s.id)}/secrets`)
        .expect(401);
      await t
        .http()
        .put(`${one(s.id)}/secrets`)
        .send({ name: 'TOKEN', value: 'x' })
        .expect(401);
      await guest.http.get(`${one((await draft(config(), projKpi)).id, projKpi)}/secrets`).expect(403);
      await other.owner.http.get(`${one(s.id)}/secrets`).expect(404);
      await org.owner.http.get(`${one(randomUUID())}/secrets`).expect(404);
    });
  });

  describe('publish gates, dry runs, run-now and snapshots', () => {
    it('publishing needs validation, every referenced secret and a successful dry run after the last secret change', async () => {
      const s = await draft();
      expect((await org.owner.http.post(`${one(s.id)}/publish`).expect(409)).body.code).toBe('sync_not_validated');
      const v = keep(await org.owner.http.post(`${one(s.id)}/validate`).expect(200)).body;
      expect(v).toMatchObject({ valid: true, sync: { validated: true, validated_at: expect.any(String) } });
      const missing = await org.owner.http.post(`${one(s.id)}/publish`).expect(409);
      expect(missing.body).toMatchObject({ code: 'sync_secrets_missing', missing_secrets: ['TOKEN'] });
      await org.owner.http
        .put(`${one(s.id)}/secrets`)
        .send({ name: 'TOKEN', value: SECRET })
        .expect(200);
      expect((await org.owner.http.post(`${one(s.id)}/publish`).expect(409)).body.code).toBe('sync_dry_run_required');
      const dry = keep(await org.owner.http.post(`${one(s.id)}/dry-run`).expect(200)).body;
      expect(dry.sync.dry_run_passed).toBe(true);
      await org.owner.http
        .put(`${one(s.id)}/secrets`)
        .send({ name: 'TOKEN', value: `${SECRET}-2` })
        .expect(200);
      expect((await org.owner.http.post(`${one(s.id)}/publish`).expect(409)).body.code).toBe('sync_dry_run_required');
      await org.owner.http
        .put(`${one(s.id)}/secrets`)
        .send({ name: 'TOKEN', value: SECRET })
        .expect(200);
      await org.owner.http.post(`${one(s.id)}/dry-run`).expect(200);
      const pub = keep(await admin.http.post(`${one(s.id)}/publish`).expect(200)).body.sync;
      expect(pub).toMatchObject({ status: 'published', published_at: expect.any(String) });
      expect((await admin.http.post(`${one(s.id)}/publish`).expect(200)).body.sync.published_at).toBe(pub.published_at);
      const dis = keep(await admin.http.post(`${one(s.id)}/disable`).expect(200)).body.sync;
      expect(dis).toMatchObject({ status: 'disabled', disabled_at: expect.any(String) });
      expect((await admin.http.post(`${one(s.id)}/publish`).expect(200)).body.sync.status).toBe('published');
    });

    it('validate fails with 400 once the host is off the allowlist, and clears the validation', async () => {
      const extra = `gone-${randomBytes(2).toString('hex')}.example.com`;
      await org.owner.http.post(policy()).send({ host: extra }).expect(201);
      const s = await draft(config({ url: `https://${extra}/v1/metric` }));
      await org.owner.http.post(`${one(s.id)}/validate`).expect(200);
      await member.http.delete(`${policy()}/${extra}`).expect(403);
      await (agentAdmin as unknown as { delete: (p: string) => request.Test }).delete(`${policy()}/${extra}`).expect(403);
      await t.http().delete(`${policy()}/${extra}`).expect(401);
      await other.owner.http.delete(`${policy()}/${extra}`).expect(404);
      const removed = keep(await admin.http.delete(`${policy()}/${extra.toUpperCase()}`).expect(200)).body;
      expect(removed.policy.allowed_hosts).not.toContain(extra);
      expect(removed.policy.allowed_hosts).toContain(HOST);
      await admin.http.delete(`${policy()}/${extra}`).expect(404);
      const r = await org.owner.http.post(`${one(s.id)}/validate`).expect(400);
      expect(r.body.error).toMatch(/allowlist/);
      expect((await org.owner.http.get(one(s.id)).expect(200)).body.sync.validated).toBe(false);
      await org.owner.http
        .put(`${one(s.id)}/secrets`)
        .send({ name: 'TOKEN', value: SECRET })
        .expect(200);
      const run = (await org.owner.http.post(`${one(s.id)}/dry-run`).expect(200)).body.run;
      expect(run).toMatchObject({ status: 'error', error_code: 'host_not_allowlisted', http_status: null });
    });

    it('a dry run sends the secret to the provider, records every run field and writes no snapshot', async () => {
      const s = await draft();
      await org.owner.http
        .put(`${one(s.id)}/secrets`)
        .send({ name: 'TOKEN', value: SECRET })
        .expect(200);
      const hits = provider.hits.length;
      const r = keep(await org.owner.http.post(`${one(s.id)}/dry-run`).expect(200)).body.run;
      const hit = provider.hits.slice(hits).find((h) => h.path === '/v1/metric');
      expect(hit?.headers.authorization).toBe(`Bearer ${SECRET}`);
      expect(hit?.headers.accept).toBe('application/json');
      expect(Object.keys(r).sort()).toEqual(
        [
          'config_hash',
          'config_version',
          'created_at',
          'duration_ms',
          'error_code',
          'extracted_value',
          'finished_at',
          'http_status',
          'id',
          'kpi_id',
          'observed_at',
          'provider_recorded_at',
          'recorded_for',
          'redacted_error',
          'response_bytes',
          'snapshot_id',
          'status',
          'sync_id',
          'trigger',
          'triggered_by_member_id',
        ].sort(),
      );
      expect(r).toMatchObject({
        trigger: 'dry_run',
        status: 'success',
        http_status: 200,
        extracted_value: 42,
        snapshot_id: null,
        error_code: null,
        redacted_error: null,
        config_version: 1,
        config_hash: s.config_hash,
        recorded_for: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/),
        observed_at: expect.any(String),
        provider_recorded_at: null,
        response_bytes: expect.any(Number),
        duration_ms: expect.any(Number),
      });
      expect(r.response_bytes).toBeGreaterThan(0);
      expect((await t.db.query('SELECT count(*)::int AS n FROM kpi_snapshots WHERE org_id = $1 AND source_sync_id = $2', [org.id, s.id]))[0].n).toBe(0);
    });

    it('run-now previews by default; with confirm_snapshot_write a published sync writes an api_poll snapshot and moves current_value in one step', async () => {
      const freshKpi = await insertKpi(org.id);
      const s = await published(config({}, {}, { freshness_config: { providerTimestampPointer: '/data/recorded_at', maxAgeHours: 1 } }), freshKpi);
      const preview = keep(
        await org.owner.http
          .post(`${one(s.id, freshKpi)}/run-now`)
          .send({})
          .expect(200),
      ).body.run;
      expect(preview).toMatchObject({
        trigger: 'preview',
        status: 'success',
        snapshot_id: null,
        extracted_value: 42,
        provider_recorded_at: expect.any(String),
      });
      expect((await t.db.query('SELECT current_value FROM kpis WHERE org_id = $1 AND id = $2', [org.id, freshKpi]))[0].current_value).toBeNull();
      const r = keep(
        await admin.http
          .post(`${one(s.id, freshKpi)}/run-now`)
          .send({ confirm_snapshot_write: true })
          .expect(200),
      ).body;
      expect(r.run).toMatchObject({ trigger: 'manual', status: 'success', extracted_value: 42, snapshot_id: expect.any(String) });
      const [snap] = await t.db.query('SELECT * FROM kpi_snapshots WHERE org_id = $1 AND id = $2', [org.id, r.run.snapshot_id]);
      expect(snap).toMatchObject({
        kpi_id: freshKpi,
        value: 42,
        source: 'api_poll',
        source_sync_id: s.id,
        source_sync_run_id: r.run.id,
        source_config_hash: s.config_hash,
        source_recorded_for: r.run.recorded_for,
      });
      expect(new Date(snap.observed_at).toISOString()).toBe(r.run.observed_at);
      expect(new Date(snap.provider_recorded_at).toISOString()).toBe(r.run.provider_recorded_at);
      const [k] = await t.db.query('SELECT current_value, last_recorded_at FROM kpis WHERE org_id = $1 AND id = $2', [org.id, freshKpi]);
      expect(k.current_value).toBe(42);
      const listed = (await member.http.get(`/api/orgs/${org.id}/kpis/${freshKpi}/snapshots`).expect(200)).body.snapshots;
      expect(listed).toEqual([
        expect.objectContaining({
          id: r.run.snapshot_id,
          value: 42,
          source: 'api_poll',
          source_sync_id: s.id,
          source_sync_run_id: r.run.id,
          source_config_hash: s.config_hash,
        }),
      ]);
      expect(Number((await member.http.get(`/api/orgs/${org.id}/kpis/${freshKpi}`).expect(200)).body.kpi.current_value)).toBe(42);
      expect(r.sync).toMatchObject({ last_run_status: 'success', last_run_at: expect.any(String) });
      const d = await draft(config(), freshKpi);
      expect(
        (
          await org.owner.http
            .post(`${one(d.id, freshKpi)}/run-now`)
            .send({ confirmSnapshotWrite: true })
            .expect(409)
        ).body.code,
      ).toBe('sync_not_published');
      await org.owner.http
        .post(`${one(d.id, freshKpi)}/run-now`)
        .send({ confirm_snapshot_write: 'yes' })
        .expect(400);
    });

    it('dry-run, publish, disable, run-now, validate and runs are for human owners/admins only', async () => {
      const s = await draft();
      for (const c of [agentAdmin, agentMember, member.http as unknown as Client]) {
        for (const action of ['validate', 'dry-run', 'publish', 'disable', 'run-now'])
          await c
            .post(`${one(s.id)}/${action}`)
            .send({})
            .expect(403);
        await c.get(`${one(s.id)}/runs`).expect(403);
      }
      const ps = await draft(config(), projKpi);
      for (const action of ['validate', 'dry-run', 'publish', 'disable', 'run-now']) {
        await guest.http
          .post(`${one(ps.id, projKpi)}/${action}`)
          .send({})
          .expect(403);
        await t
          .http()
          .post(`${one(s.id)}/${action}`)
          .send({})
          .expect(401);
        await other.owner.http
          .post(`${one(s.id)}/${action}`)
          .send({})
          .expect(404);
        await org.owner.http
          .post(`${one(randomUUID())}/${action}`)
          .send({})
          .expect(404);
      }
      await t
        .http()
        .get(`${one(s.id)}/runs`)
        .expect(401);
      await other.owner.http.get(`${one(s.id)}/runs`).expect(404);
    });

    it('run history: newest first, only the run fields, never headers, secrets or provider bodies', async () => {
      const s = await published();
      await org.owner.http
        .post(`${one(s.id)}/run-now`)
        .send({})
        .expect(200);
      const r = keep(await admin.http.get(`${one(s.id)}/runs`).expect(200));
      expect(r.body).toMatchObject({ total: 2, limit: 25, offset: 0 });
      expect(r.body.runs.map((x: any) => x.trigger)).toEqual(['preview', 'dry_run']);
      expect(r.text).not.toContain(SECRET);
      expect(r.text).not.toContain(BODY_MARKER);
      expect(r.text).not.toMatch(/authorization|headers|"body"/i);
      expect((await admin.http.get(`${one(s.id)}/runs?limit=1&offset=1`).expect(200)).body.runs[0].trigger).toBe('dry_run');
      await admin.http.get(`${one(s.id)}/runs?offset=x`).expect(400);
    });
  });

  describe('run failures (through the egress client, against the local provider)', () => {
    it.each([
      ['a non-JSON response', '/v1/html', {}, { error_code: 'not_json', http_status: 200 }],
      ['invalid JSON', '/v1/broken', {}, { error_code: 'invalid_json', http_status: 200 }],
      ['a redirect (not followed)', '/v1/redirect', {}, { error_code: 'redirect', http_status: 302 }],
      ['a provider error status', '/v1/unavailable', {}, { error_code: 'http_error', http_status: 503 }],
      ['a pointer naming nothing', '/v1/metric', { pointer: '/data/missing' }, { error_code: 'pointer_not_found' }],
      ['a non-numeric value', '/v1/text', {}, { error_code: 'value_not_numeric' }],
      // 1e307 as a fraction is 1e309 percent points: not a finite number, never stored as Infinity
      ['a value that overflows when scaled', '/v1/huge-fraction', { numeric: { mode: 'percentage', percentageScale: 1 } }, { error_code: 'value_not_numeric' }],
    ])('%s is a recorded error run with a stable code and a safe message', async (_n, path, ext, want) => {
      const hits = provider.hits.length;
      const run = await dryRun({ url: `https://${HOST}${path}` }, ext);
      expect(run).toMatchObject({ status: 'error', extracted_value: null, snapshot_id: null, ...want, redacted_error: expect.any(String) });
      expect(run.redacted_error).not.toContain(BODY_MARKER);
      if (path === '/v1/redirect') expect(provider.hits.slice(hits).map((h) => h.path)).toEqual(['/v1/redirect']);
    });

    it('an oversized response is refused (injected size limit)', async () => {
      limits.maxResponseBytes = 1024;
      const run = await dryRun({ url: `https://${HOST}/v1/big` });
      expect(run).toMatchObject({ status: 'error', error_code: 'too_large', http_status: 200 });
    });

    it('a slow provider times out (injected time limit)', async () => {
      limits.timeoutMs = 150;
      const run = await dryRun({ url: `https://${HOST}/v1/slow` });
      expect(run).toMatchObject({ status: 'error', error_code: 'timeout', http_status: null });
    });

    it('a missing secret fails before any request', async () => {
      const k = await insertKpi(org.id);
      const s = await draft(config({ url: `https://${HOST}/v1/metric` }), k);
      const hits = provider.hits.length;
      const run = (await org.owner.http.post(`${one(s.id, k)}/dry-run`).expect(200)).body.run;
      expect(run).toMatchObject({ status: 'error', error_code: 'secret_missing' });
      expect(provider.hits.length).toBe(hits);
    });

    it('a KPI deleted while its sync runs: nothing is written, run-now answers 404', async () => {
      const k = await insertKpi(org.id);
      const s = await published(config({ url: `https://${HOST}/v1/metric` }), k);
      await org.owner.http.patch(one(s.id, k)).send({ name: 'still published' }).expect(200);
      await t.db.query("UPDATE kpi_http_syncs SET request_config = jsonb_set(request_config, '{url}', $3) WHERE org_id = $1 AND id = $2", [
        org.id,
        s.id,
        JSON.stringify(`https://${HOST}/v1/vanishing`),
      ]);
      beforeVanishing = async () => {
        await t.db.query('DELETE FROM kpis WHERE org_id = $1 AND id = $2', [org.id, k]);
      };
      try {
        await org.owner.http
          .post(`${one(s.id, k)}/run-now`)
          .send({ confirm_snapshot_write: true })
          .expect(404);
      } finally {
        beforeVanishing = async () => undefined;
      }
      expect(await t.db.query('SELECT 1 FROM kpi_snapshots WHERE org_id = $1 AND kpi_id = $2', [org.id, k])).toEqual([]);
    });

    it('a provider value older than maxAgeHours is stale', async () => {
      const run = await dryRun({ url: `https://${HOST}/v1/stale` }, {}, { providerTimestampPointer: '/data/recorded_at', maxAgeHours: 24 });
      expect(run).toMatchObject({ status: 'error', error_code: 'stale_value', provider_recorded_at: '2020-01-01T00:00:00.000Z', extracted_value: 9 });
    });

    it.each([
      ['a fraction with scale 1', '/v1/fraction', { mode: 'percentage', percentageScale: 1 }, 42.35],
      ['percent points with scale 100', '/v1/points', { mode: 'percentage', percentageScale: 100 }, 42.35],
      ['a decimal string', '/v1/string-number', { mode: 'number', percentageScale: null }, 17.5],
      ['a +json media type', '/v1/vendor-json', { mode: 'number', percentageScale: null }, 5],
    ])('extracts %s', async (_n, path, numeric, value) => {
      const run = await dryRun({ url: `https://${HOST}${path}` }, { numeric });
      expect(run).toMatchObject({ status: 'success', extracted_value: value });
    });
  });

  describe('org-wide review', () => {
    it('human owners/admins get configuration and secret metadata; members redacted rows; guests and machines 403', async () => {
      const k = await insertKpi(org.id);
      const s = await published(config(), k);
      const o = keep(await org.owner.http.get(review()).expect(200));
      expect(o.text).toContain(HOST);
      const row = o.body.syncs.find((x: any) => x.id === s.id);
      expect(row).toMatchObject({
        redacted: false,
        kpi: { id: k, name: expect.any(String) },
        secrets: [{ name: 'TOKEN', configured: true, referenced: true, updated_at: expect.any(String) }],
      });
      expect((await admin.http.get(review()).expect(200)).body.syncs.find((x: any) => x.id === s.id).secrets).toHaveLength(1);
      const m = keep(await member.http.get(review()).expect(200));
      const mrow = m.body.syncs.find((x: any) => x.id === s.id);
      expect(mrow).toMatchObject({ id: s.id, status: 'published', redacted: true });
      expect(mrow.secrets).toBeUndefined();
      expect(m.text).not.toContain(HOST);
      expect(m.text).not.toContain('/v1/metric');
      expect(m.text).not.toContain('TOKEN');
      await guest.http.get(review()).expect(403);
      await agentAdmin.get(review()).expect(403);
      await agentMember.get(review()).expect(403);
      await guestAgent.get(review()).expect(403);
      await t.http().get(review()).expect(401);
      await org.owner.http.get(`${review()}?limit=abc`).expect(400);
      await member.http.get(`${review()}?offset=-1`).expect(400);
      await other.owner.http.get(review()).expect(404);
      expect((await other.owner.http.get(`/api/orgs/${other.id}/kpi-http-syncs`).expect(200)).body.syncs).toEqual([]);
      const env = await org.owner.http.get(`${review()}?shape=envelope&limit=1`).expect(200);
      expect(env.body).toMatchObject({ resource: 'syncs', limit: 1, truncated: true });
    });
  });

  describe('scheduled sweep (injected clock)', () => {
    let sweepOrg: string;
    const processor = (at: Date) =>
      new KpiSyncSweepProcessor(
        t.app.get(TxRunner),
        t.app.get(KpiSyncsRepository),
        t.app.get(KpiSyncRunsRepository),
        t.app.get(KpiSyncRunner),
        new FixedClock(at),
      );
    const scheduledRuns = (syncId: string) =>
      t.db.query("SELECT * FROM kpi_http_sync_runs WHERE org_id = $1 AND sync_id = $2 AND trigger = 'schedule' ORDER BY recorded_for", [sweepOrg, syncId]);

    beforeAll(() => {
      sweepOrg = org.id;
    });

    it('runs each due published sync exactly once per slot, across concurrent sweeps, and writes its snapshot', async () => {
      const sKpi = await insertKpi(org.id);
      const hourly = await published(config({}, {}, { schedule: 'hourly' }), sKpi);
      const daily = await published(config({}, {}, { schedule: 'daily' }), sKpi);
      const manual = await published(config({}, {}, { schedule: 'manual' }), sKpi);
      const draftOnly = await draft(config({}, {}, { schedule: 'hourly' }), sKpi);
      const disabled = await published(config({}, {}, { schedule: 'hourly' }), sKpi);
      await org.owner.http.post(`${one(disabled.id, sKpi)}/disable`).expect(200);
      // only this test's syncs: park every other published sync of the organization
      await t.db.query("UPDATE kpi_http_syncs SET status = 'disabled', disabled_at = now() WHERE org_id = $1 AND kpi_id <> $2 AND status = 'published'", [
        org.id,
        sKpi,
      ]);

      const t1 = new Date('2031-03-04T10:15:00Z');
      const [a, b] = await Promise.all([processor(t1).sweep(t1, { orgId: org.id }), processor(t1).sweep(t1, { orgId: org.id })]);
      expect(a.ran + b.ran).toBe(2); // hourly + daily, once each
      expect(a.succeeded + b.succeeded).toBe(2);
      expect((await processor(t1).sweep(new Date('2031-03-04T10:59:00Z'), { orgId: org.id })).ran).toBe(0);
      const h1 = await scheduledRuns(hourly.id);
      expect(h1.map((r: any) => r.recorded_for)).toEqual(['2031-03-04T10:00:00.000Z']);
      expect(h1[0]).toMatchObject({ status: 'success', extracted_value: 42, snapshot_id: expect.any(String), triggered_by_member_id: null });
      expect((await scheduledRuns(daily.id)).map((r: any) => r.recorded_for)).toEqual(['2031-03-04T00:00:00.000Z']);
      for (const id of [manual.id, draftOnly.id, disabled.id]) expect(await scheduledRuns(id)).toHaveLength(0);
      const [snap] = await t.db.query('SELECT * FROM kpi_snapshots WHERE org_id = $1 AND id = $2', [org.id, h1[0].snapshot_id]);
      expect(snap).toMatchObject({
        source: 'api_poll',
        source_sync_id: hourly.id,
        source_sync_run_id: h1[0].id,
        source_recorded_for: '2031-03-04T10:00:00.000Z',
      });

      const t2 = new Date('2031-03-04T11:00:30Z');
      expect((await processor(t2).sweep(t2, { orgId: org.id })).ran).toBe(1); // next hour; same day
      expect((await scheduledRuns(hourly.id)).map((r: any) => r.recorded_for)).toEqual(['2031-03-04T10:00:00.000Z', '2031-03-04T11:00:00.000Z']);
      const runs = keep(await org.owner.http.get(`${one(hourly.id, sKpi)}/runs`).expect(200)).body.runs;
      expect(runs[0]).toMatchObject({ trigger: 'schedule', status: 'success', recorded_for: '2031-03-04T11:00:00.000Z' });

      // the database refuses a second scheduled run for a slot
      await expect(
        t.db.query(
          `INSERT INTO kpi_http_sync_runs (org_id, sync_id, kpi_id, trigger, status, recorded_for, config_version, config_hash) VALUES ($1, $2, $3, 'schedule', 'queued', $4, 1, 'x')`,
          [org.id, hourly.id, sKpi, '2031-03-04T11:00:00.000Z'],
        ),
      ).rejects.toThrow(/kpi_http_sync_runs_scheduled_slot_uq/);
    });

    it('closes runs a dead worker left unfinished', async () => {
      const s = await draft(config(), projKpi);
      const [{ id }] = await t.db.query(
        `INSERT INTO kpi_http_sync_runs (org_id, sync_id, kpi_id, trigger, status, recorded_for, config_version, config_hash, created_at)
         VALUES ($1, $2, $3, 'schedule', 'running', 'stale-slot', 1, 'x', now() - interval '1 hour') RETURNING id`,
        [org.id, s.id, projKpi],
      );
      const now = new Date();
      expect((await processor(now).sweep(now, { orgId: org.id })).interrupted).toBe(1);
      const [r] = await t.db.query('SELECT status, error_code, finished_at FROM kpi_http_sync_runs WHERE org_id = $1 AND id = $2', [org.id, id]);
      expect(r).toMatchObject({ status: 'error', error_code: 'interrupted', finished_at: expect.any(Date) });
    });
  });

  it('the secret never appeared in a response, a stored run or a log line', async () => {
    expect(seen.length).toBeGreaterThan(30);
    expect(seen.filter((s) => s.includes(SECRET))).toEqual([]);
    expect(logged.length).toBeGreaterThan(0); // error runs were logged
    expect(logged.filter((s) => s.includes(SECRET))).toEqual([]);
    const runs = await t.db.query('SELECT to_jsonb(r)::text AS j FROM kpi_http_sync_runs r WHERE org_id = $1', [org.id]);
    expect(runs.length).toBeGreaterThan(10);
    expect(runs.filter((r: any) => r.j.includes(SECRET) || r.j.includes(BODY_MARKER))).toEqual([]);
    const syncRows = await t.db.query('SELECT to_jsonb(s)::text AS j FROM kpi_http_syncs s WHERE org_id = $1', [org.id]);
    expect(syncRows.filter((r: any) => r.j.includes(SECRET))).toEqual([]);
  });

  // last: closing a second (worker) Nest context ends the pool the API test app shares
  describe('worker process', () => {
    it('the worker process runs the sweep through its Bull queue (scheduler → processor → run)', async () => {
      const wKpi = await insertKpi(org.id);
      const s = await published(config({}, {}, { schedule: 'hourly' }), wKpi);
      const ref = await Test.createTestingModule({ imports: [WorkerModule.forRoot(t.config)] }).compile();
      await ref.init();
      try {
        // this minute's sweep may already have run (job ids are per minute; an earlier spec's
        // worker enqueued it before this sync existed): drop that job so this enqueue is a new one
        const queue = ref.get<Queue>(getQueueToken(KPI_SYNC_QUEUE), { strict: false });
        await (await queue.getJob(`${KPI_SYNC_SWEEP}:${new Date().toISOString().slice(0, 16)}`))?.remove();
        await ref.get(KpiSyncScheduler, { strict: false }).enqueueSweep();
        let runs: any[] = [];
        for (let i = 0; i < 100 && !runs.some((r) => r.status === 'success'); i++) {
          await new Promise((r) => setTimeout(r, 100));
          runs = await t.db.query("SELECT * FROM kpi_http_sync_runs WHERE org_id = $1 AND sync_id = $2 AND trigger = 'schedule'", [org.id, s.id]);
        }
        expect(runs).toHaveLength(1);
        expect(runs[0]).toMatchObject({ status: 'success', snapshot_id: expect.any(String), recorded_for: expect.stringMatching(/T\d{2}:00:00\.000Z$/) });
        expect((await t.db.query('SELECT current_value FROM kpis WHERE org_id = $1 AND id = $2', [org.id, wKpi]))[0].current_value).toBe(42);
      } finally {
        await ref.close();
      }
    });
  });
});
