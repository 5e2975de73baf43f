import fc from 'fast-check';
import { createHash, randomUUID } from 'node:crypto';
import { LeaseExpirySweep } from '../../src/modules/runners/lease-expiry.sweep';
import { LeasesRepository } from '../../src/modules/runners/leases.repository';
import { startTestApp, type TestApp } from '../support/app';
import { bearer, newAgent, newOrg, newProject, type TestOrg, type TestUser, uniq } from '../support/factories';
import { insertIssue, workTrackingWorld } from '../support/issues';
import { type PrivateRedis, startPrivateRedis } from '../support/redis';

type Api = ReturnType<typeof bearer>;
interface Agent {
  memberId: string;
  api: Api;
}

/**
 * Runner presence and intake, and fenced leases (issue 15): closed values, the refresh limit on
 * Redis (and failing closed without it), installation conflicts, every claim rejection, token
 * replay and recovery, fencing by runner, generation, token and sequence, exact retries, the lease
 * state machine, expiry, and concurrency (one live lease per issue, checked in the database).
 */
describe('runners and leases', () => {
  let t: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  let member: TestUser;
  let proj: { id: string };
  let hidden: { id: string };
  const self = () => `/api/orgs/${org.id}/runners/self`;
  const claimPath = () => `/api/orgs/${org.id}/runner-leases/claim`;
  const leasePath = (id: string) => `/api/orgs/${org.id}/runner-leases/${id}`;
  const fields = (over: Record<string, unknown> = {}) => ({
    instanceId: randomUUID(),
    platform: 'linux',
    arch: 'x64',
    capabilities: ['git', 'codex'],
    clientVersion: '1.4.2',
    ...over,
  });

  const agent = async (level: 'view' | 'edit' = 'edit', projectId = proj.id): Promise<Agent> => {
    const a = await newAgent(t, org, { projectIds: [projectId] });
    if (level !== 'edit')
      await org.owner.http.patch(`/api/orgs/${org.id}/projects/${projectId}/members`).send({ memberId: a.memberId, accessLevel: level }).expect(200);
    return { memberId: a.memberId, api: bearer(t, a.key) };
  };
  const connected = async (level: 'view' | 'edit' = 'edit'): Promise<Agent & { runner: any; instanceId: string }> => {
    const a = await agent(level);
    const f = fields();
    const r = await a.api.put(self()).send({ runner: f }).expect(201);
    return { ...a, runner: r.body.runner, instanceId: f.instanceId };
  };
  const issueFor = (...assignees: Agent[]) => insertIssue(t, org.id, proj.id, { status: 'todo', assigneeIds: assignees.map((a) => a.memberId) });
  const claim = (a: Agent, issueId: string, key = uniq('claim'), extra: Record<string, unknown> = {}) =>
    a.api.post(claimPath()).send({ issueId, idempotencyKey: key, ...extra });

  /** A held lease with its write helper (sends sequence + 1 each time). */
  const held = async (a: Agent, issueId?: string) => {
    const id = issueId ?? (await issueFor(a)).id;
    const c = await claim(a, id).expect(201);
    const L = {
      id: c.body.lease.id as string,
      issueId: id,
      token: c.body.token as string,
      gen: c.body.lease.claim_generation as number,
      seq: c.body.lease.sequence as number,
      execId: c.body.lease.execution_id as string,
      body(transition: string, extra: Record<string, unknown> = {}) {
        return { token: this.token, claimGeneration: this.gen, sequence: this.seq + 1, mutationId: randomUUID(), transition, ...extra };
      },
      async send(body: Record<string, unknown>) {
        const r = await a.api.patch(leasePath(this.id)).send(body);
        if (r.status === 200) this.seq = Math.max(this.seq, body.sequence as number);
        return r;
      },
      write(transition: string, extra: Record<string, unknown> = {}) {
        return this.send(this.body(transition, extra));
      },
      /** A write that must be accepted. */
      async ok(transition: string, extra: Record<string, unknown> = {}) {
        const r = await this.write(transition, extra);
        expect([transition, r.status, r.body.code]).toEqual([transition, 200, undefined]);
        return r;
      },
    };
    return L;
  };
  const liveLeases = async (issueId: string) =>
    (
      await t.db.query(`SELECT count(*)::int AS n FROM runner_leases WHERE org_id = $1 AND issue_id = $2 AND state IN ('active', 'uncertain')`, [
        org.id,
        issueId,
      ])
    )[0].n;

  /** The bare human-attention resume body of lease L's execution (versions after intent, start, raise and resolve). */
  const humanAttention = (L: { issueId: string; execId: string }, itemId: string, over: Record<string, unknown> = {}) => ({
    issueId: L.issueId,
    idempotencyKey: uniq('resume'),
    attention_source: 'human_attention',
    execution_id: L.execId,
    human_attention_item_id: itemId,
    expected_attention_version: 2,
    expected_execution_version: 4,
    ...over,
  });
  /** A human reply to the agent's routed comment: the agent's unread `resume_agent_thread` notification (its id). */
  const routedNotice = async (a: Agent, issueId: string, routing: Record<string, string> | null) => {
    const parent = await a.api
      .post(`/api/orgs/${org.id}/issues/${issueId}/comments`)
      .send({ body: 'agent asks', ...(routing ? { source_metadata: routing } : {}) })
      .expect(201);
    const reply = await org.owner.http
      .post(`/api/orgs/${org.id}/issues/${issueId}/comments`)
      .send({ body: 'human answers', reply_to_comment_id: parent.body.comment.id })
      .expect(201);
    const [row] = await t.db.query('SELECT id, action_kind FROM notifications WHERE org_id = $1 AND recipient_member_id = $2 AND comment_id = $3', [
      org.id,
      a.memberId,
      reply.body.comment.id,
    ]);
    expect(row.action_kind).toBe('resume_agent_thread');
    return row.id as string;
  };
  beforeAll(async () => {
    t = await startTestApp();
    ({ org, other, member, proj, hidden } = await workTrackingWorld(t));
  });
  afterAll(() => t.close());

  describe('presence', () => {
    it('PUT registers (201) and refreshes (200); GET shows connected with derived display_name; nothing secret in the response', async () => {
      const a = await agent();
      const before = await a.api.get(self());
      expect([before.status, before.body.code]).toEqual([404, 'RUNNER_NOT_REGISTERED']);
      const f = fields({ hostId: 'host-7' });
      const r = await a.api.put(self()).send({ runner: f });
      expect(r.status).toBe(201);
      expect(r.body.runner).toMatchObject({
        agent_member_id: a.memberId,
        presence_state: 'connected',
        intake_state: 'active',
        display_name: 'Linux x64 runner',
        capabilities: ['codex', 'git'],
        clientVersion: '1.4.2',
        host_id: 'host-7',
        instance_id: f.instanceId,
      });
      const again = await a.api.put(self()).send({ runner: { ...f, client_version: '1.5.0', clientVersion: undefined, platform: 'darwin', arch: 'arm64' } });
      expect(again.status).toBe(200);
      expect(again.body.runner).toMatchObject({ id: r.body.runner.id, clientVersion: '1.5.0', display_name: 'macOS arm64 runner' });
      const got = await a.api.get(self()).expect(200);
      expect(got.body.runner.presence_state).toBe('connected');
      expect(JSON.stringify(got.body)).not.toMatch(/sk_service|api_?key|token|prompt|pid|\/home\//i);
    });

    it('closed values, unknown fields and bad bodies are 400 and change nothing; humans get 403', async () => {
      const a = await agent();
      for (const over of [
        { platform: 'solaris' },
        { arch: 'mips' },
        { capabilities: ['codex', 'docker'] },
        { capabilities: ['git', 'git'] },
        { capabilities: 'codex' },
        { clientVersion: 'latest' },
        { clientVersion: '1.x.3' },
        { clientVersion: '../1.2.3' },
        { clientVersion: '01.2.3' },
        { instanceId: 'not-a-uuid' },
        { hostId: '/Users/dev/box' },
        { hostId: 'h'.repeat(256) },
        { processId: 4242 },
        { profileName: 'default' },
      ]) {
        const r = await a.api.put(self()).send({ runner: fields(over) });
        expect([JSON.stringify(over), r.status, r.body.code]).toEqual([JSON.stringify(over), 400, 'validation_failed']);
      }
      for (const body of [{}, { runner: 'x' }, { runner: fields(), extra: 1 }]) expect((await a.api.put(self()).send(body)).status).toBe(400);
      expect((await a.api.put(self()).set('content-type', 'application/json').send('[1]')).status).toBe(400);
      expect((await a.api.get(self())).status).toBe(404);
      for (const r of [await org.owner.http.get(self()), await org.owner.http.put(self()).send({ runner: fields() }), await org.owner.http.delete(self())]) {
        expect(r.status).toBe(403);
      }
    });

    it('stale after 10 minutes without refresh; DELETE → offline (GET shows offline), idempotent; PUT reconnects', async () => {
      const a = await connected();
      await t.db.query(`UPDATE runner_installations SET last_seen_at = now() - interval '11 minutes' WHERE org_id = $1 AND id = $2`, [org.id, a.runner.id]);
      expect((await a.api.get(self()).expect(200)).body.runner.presence_state).toBe('stale');
      const d = await a.api.delete(self()).expect(200);
      expect(d.body.runner.presence_state).toBe('offline');
      expect((await a.api.get(self()).expect(200)).body.runner.presence_state).toBe('offline');
      await a.api.delete(self()).expect(200);
      const back = await a.api
        .put(self())
        .send({ runner: fields({ instanceId: a.instanceId }) })
        .expect(200);
      expect([back.body.runner.id, back.body.runner.presence_state]).toEqual([a.runner.id, 'connected']);
    });

    it('a second live installation of the same agent is 409 RUNNER_INSTALLATION_CONFLICT; after disconnect it replaces the old one for good', async () => {
      const a = await connected();
      const second = fields();
      const r = await a.api.put(self()).send({ runner: second });
      expect([r.status, r.body.code]).toEqual([409, 'RUNNER_INSTALLATION_CONFLICT']);
      expect((await a.api.get(self()).expect(200)).body.runner.id).toBe(a.runner.id);
      await a.api.delete(self()).expect(200);
      const taken = await a.api.put(self()).send({ runner: second }).expect(201);
      expect(taken.body.runner.id).not.toBe(a.runner.id);
      await a.api.delete(self()).expect(200);
      const old = await a.api.put(self()).send({ runner: fields({ instanceId: a.instanceId }) });
      expect([old.status, old.body.code]).toEqual([409, 'RUNNER_INSTALLATION_CONFLICT']);
      const cur = await t.db.query('SELECT count(*)::int AS n FROM runner_installations WHERE org_id = $1 AND agent_member_id = $2 AND replaced_at IS NULL', [
        org.id,
        a.memberId,
      ]);
      expect(cur[0].n).toBe(1);
    });

    it('refresh limit: 60 per agent per minute, the 61st is 429 RATE_LIMITED with Retry-After; another agent is unaffected', async () => {
      const a = await agent();
      const body = { runner: fields() };
      for (let i = 0; i < 60; i++) expect((await a.api.put(self()).send(body)).status).toBeLessThan(300);
      const r = await a.api.put(self()).send(body);
      expect([r.status, r.body.code, r.body.limit]).toEqual([429, 'RATE_LIMITED', 60]);
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(r.body.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(r.body.currentCount).toBeGreaterThanOrEqual(61);
      const b = await agent();
      await b.api.put(self()).send({ runner: fields() }).expect(201);
    });
  });

  describe('human list and intake', () => {
    it('owners list runners; agents get 403; intake pause/resume, same-state writes are no-ops without duplicate history', async () => {
      const a = await connected();
      const list = await org.owner.http.get(`/api/orgs/${org.id}/runners`).expect(200);
      const row = list.body.runners.find((x: { agent_member_id: string }) => x.agent_member_id === a.memberId);
      expect(row).toMatchObject({ id: a.runner.id, presence_state: 'connected', intake_state: 'active' });
      expect((await a.api.get(`/api/orgs/${org.id}/runners`)).status).toBe(403);
      const intake = `/api/orgs/${org.id}/runners/${a.runner.id}/intake`;
      expect((await a.api.patch(intake).send({ intake_state: 'paused' })).status).toBe(403);
      expect((await org.owner.http.patch(intake).send({ intake_state: 'paused' }).expect(200)).body.runner.intake_state).toBe('paused');
      await org.owner.http.patch(intake).send({ intake_state: 'paused' }).expect(200);
      await org.owner.http.patch(intake).send({ intake_state: 'active' }).expect(200);
      await org.owner.http.patch(intake).send({ intake_state: 'active' }).expect(200);
      const history = await t.db.query('SELECT from_state, to_state FROM runner_intake_events WHERE org_id = $1 AND runner_id = $2 ORDER BY created_at, id', [
        org.id,
        a.runner.id,
      ]);
      expect(history).toEqual([
        { from_state: 'active', to_state: 'paused' },
        { from_state: 'paused', to_state: 'active' },
      ]);
      for (const bad of [{ intake_state: 'sleeping' }, {}, { intake_state: 'paused', extra: true }])
        expect((await org.owner.http.patch(intake).send(bad)).status).toBe(400);
      expect((await org.owner.http.patch(`/api/orgs/${org.id}/runners/${randomUUID()}/intake`).send({ intake_state: 'paused' })).status).toBe(404);
      expect((await org.owner.http.patch(`/api/orgs/${org.id}/runners/nope/intake`).send({ intake_state: 'paused' })).status).toBe(404);
      // a plain member manages none of these agents: concealed
      expect((await member.http.patch(intake).send({ intake_state: 'paused' })).status).toBe(404);
      expect((await member.http.get(`/api/orgs/${org.id}/runners`).expect(200)).body.runners).toEqual([]);
      const foreign = await newOrg(t);
      expect((await foreign.owner.http.patch(`/api/orgs/${org.id}/runners/${a.runner.id}/intake`).send({ intake_state: 'paused' })).status).toBe(404);
    });
  });

  describe('claims', () => {
    it('claims an assigned issue: 201 lease at generation 1, sequence 0, a one-time token stored only as SHA-256, and a linked execution', async () => {
      const a = await connected();
      const issue = await issueFor(a);
      const c = await claim(a, issue.id);
      expect(c.status).toBe(201);
      expect(c.body.token_reissued).toBe(false);
      expect(c.body.token).toMatch(/^rlt_[A-Za-z0-9_-]{40,}$/);
      expect(c.body.lease).toMatchObject({
        issue_id: issue.id,
        runner_id: a.runner.id,
        state: 'active',
        phase: 'pre_intent',
        claim_generation: 1,
        sequence: 0,
      });
      const stored = await t.db.query('SELECT token_hash FROM runner_leases WHERE org_id = $1 AND id = $2', [org.id, c.body.lease.id]);
      expect(stored[0].token_hash).toBe(createHash('sha256').update(c.body.token).digest('hex'));
      const dump = JSON.stringify(await t.db.query('SELECT * FROM runner_leases WHERE org_id = $1 AND id = $2', [org.id, c.body.lease.id]));
      expect(dump).not.toContain(c.body.token);
      const ex = await a.api.get(`/api/orgs/${org.id}/agent-executions/${c.body.lease.execution_id}`).expect(200);
      expect(ex.body.execution).toMatchObject({
        issue_id: issue.id,
        harness_kind: 'service_local_runner',
        external_run_id: c.body.lease.id,
        state: 'assigned',
      });
    });

    it('rejects unassigned, archived, terminal, dependency-blocked, read-only, inaccessible issues and paused or disconnected runners, each with its code', async () => {
      const a = await connected();
      const unassigned = await insertIssue(t, org.id, proj.id, { status: 'todo' });
      const archived = await insertIssue(t, org.id, proj.id, { status: 'todo', assigneeId: a.memberId, archived: true });
      const done = await insertIssue(t, org.id, proj.id, { status: 'done', assigneeId: a.memberId });
      const cancelled = await insertIssue(t, org.id, proj.id, { status: 'cancelled', assigneeId: a.memberId });
      const blocker = await insertIssue(t, org.id, proj.id, { status: 'todo' });
      const blocked = await issueFor(a);
      await t.db.query('INSERT INTO issue_dependencies (org_id, blocking_issue_id, blocked_issue_id) VALUES ($1, $2, $3)', [org.id, blocker.id, blocked.id]);
      const cases: Array<[string, number, string]> = [
        [unassigned.id, 409, 'RUNNER_ISSUE_NOT_ASSIGNED'],
        [archived.id, 409, 'RUNNER_ISSUE_ARCHIVED'],
        [done.id, 409, 'RUNNER_ISSUE_TERMINAL'],
        [cancelled.id, 409, 'RUNNER_ISSUE_TERMINAL'],
        [blocked.id, 409, 'RUNNER_ISSUE_BLOCKED'],
      ];
      for (const [id, status, code] of cases) {
        const r = await claim(a, id);
        expect([code, r.status, r.body.code]).toEqual([code, status, code]);
      }
      const hiddenIssue = await insertIssue(t, org.id, hidden.id, { status: 'todo', assigneeId: a.memberId });
      const otherProj = await newProject(t, other);
      const foreignIssue = await insertIssue(t, other.id, otherProj.id, { status: 'todo' });
      for (const id of [hiddenIssue.id, foreignIssue.id, randomUUID()]) expect((await claim(a, id)).status).toBe(404);
      expect((await claim(a, 'not-a-uuid')).status).toBe(400);
      expect(await liveLeases(blocked.id)).toBe(0);
      await t.db.query(`UPDATE issues SET status = 'done' WHERE org_id = $1 AND id = $2`, [org.id, blocker.id]);
      await claim(a, blocked.id).expect(201);

      const v = await connected('view');
      const viewIssue = await issueFor(v);
      const ro = await claim(v, viewIssue.id);
      expect([ro.status, ro.body.code]).toEqual([403, 'RUNNER_ISSUE_READ_ONLY']);

      // paused: no new lease, but the held one still renews
      const p = await connected();
      const L = await held(p);
      await org.owner.http.patch(`/api/orgs/${org.id}/runners/${p.runner.id}/intake`).send({ intake_state: 'paused' }).expect(200);
      const next = await issueFor(p);
      const paused = await claim(p, next.id);
      expect([paused.status, paused.body.code]).toEqual([409, 'RUNNER_INTAKE_PAUSED']);
      expect((await L.write('renew')).status).toBe(200);
      await org.owner.http.patch(`/api/orgs/${org.id}/runners/${p.runner.id}/intake`).send({ intake_state: 'active' }).expect(200);
      await claim(p, next.id).expect(201);

      // disconnected and unregistered runners
      await p.api.delete(self()).expect(200);
      const off = await claim(p, (await issueFor(p)).id);
      expect([off.status, off.body.code]).toEqual([409, 'RUNNER_NOT_CONNECTED']);
      expect((await L.write('renew')).body.code).toBe('RUNNER_LEASE_RUNNER_FENCED');
      const fresh = await agent();
      const none = await claim(fresh, (await issueFor(fresh)).id);
      expect([none.status, none.body.code]).toEqual([409, 'RUNNER_NOT_REGISTERED']);
      // humans: agent-only route
      expect((await org.owner.http.post(claimPath()).send({ issueId: next.id, idempotencyKey: 'h' })).status).toBe(403);
    });

    it('bad claim bodies are 400 (attention_resume without its routing fields included)', async () => {
      const a = await connected();
      const issue = await issueFor(a);
      for (const body of [{}, { issueId: issue.id }, { issueId: issue.id, idempotencyKey: '' }, { issueId: issue.id, idempotencyKey: 'k', surprise: 1 }]) {
        expect((await a.api.post(claimPath()).send(body)).status).toBe(400);
      }
      const r = await claim(a, issue.id, uniq('k'), { claimKind: 'attention_resume', attentionItemId: randomUUID() });
      expect([r.status, r.body.code]).toEqual([400, 'validation_failed']);
      expect(await liveLeases(issue.id)).toBe(0);
    });

    it('replay: an untouched lease reissues its token (the old one stops working); touched or closed leases replay with token null; another issue under the key 409', async () => {
      const a = await connected();
      const issue = await issueFor(a);
      const key = uniq('claim');
      const c1 = await claim(a, issue.id, key).expect(201);
      const c2 = await claim(a, issue.id, key).expect(200);
      expect(c2.body.lease.id).toBe(c1.body.lease.id);
      expect(c2.body.token_reissued).toBe(true);
      expect(c2.body.token).not.toBe(c1.body.token);
      const w = (token: string, seq: number, transition = 'renew') =>
        a.api.patch(leasePath(c1.body.lease.id)).send({ token, claimGeneration: 1, sequence: seq, mutationId: randomUUID(), transition });
      const old = await w(c1.body.token, 1);
      expect([old.status, old.body.code]).toEqual([403, 'RUNNER_LEASE_TOKEN_INVALID']);

      // overlapping recovery: the previous reissued token stays valid (one minute or until used, which promotes it)
      const c3 = await claim(a, issue.id, key).expect(200);
      expect(c3.body.token_reissued).toBe(true);
      await w(c2.body.token, 1).expect(200);
      const superseded = await w(c3.body.token, 2);
      expect([superseded.status, superseded.body.code]).toEqual([403, 'RUNNER_LEASE_TOKEN_INVALID']);
      await w(c2.body.token, 2).expect(200);

      // touched now: replays carry no token
      const c4 = await claim(a, issue.id, key).expect(200);
      expect([c4.body.token, c4.body.token_reissued, c4.body.lease.sequence]).toEqual([null, false, 2]);
      const reuse = await claim(a, (await issueFor(a)).id, key);
      expect([reuse.status, reuse.body.code]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
    });

    it('human-attention resume: waiting execution, resolved item, same installation; fenced by both versions; one resume per item', async () => {
      const a = await connected();
      const L = await held(a);
      await L.ok('started');
      const exPath = `/api/orgs/${org.id}/agent-executions/${L.execId}`;
      expect((await a.api.get(exPath).expect(200)).body.execution).toMatchObject({ state: 'running', state_version: 2 });
      const raised = await a.api
        .post(`${exPath}/attention`)
        .send({ idempotency_key: uniq('att'), title: 'Deploy now?', question: 'May I deploy?' })
        .expect(201);
      const itemId = raised.body.attention_item.id;
      const body = (over: Record<string, unknown> = {}) => humanAttention(L, itemId, over);
      const early = await a.api.post(claimPath()).send(body());
      expect([early.status, early.body.code]).toEqual([409, 'RUNNER_ATTENTION_EXECUTION_NOT_WAITING']);
      await org.owner.http.post(`/api/orgs/${org.id}/attention-items/${itemId}/resolve`).send({ answer: 'Yes', expected_version: 1 }).expect(200);

      const cases: Array<[Record<string, unknown>, number, string]> = [
        [{ expected_execution_version: 3 }, 409, 'STALE_STATE_VERSION'],
        [{ expected_attention_version: 1 }, 409, 'STALE_ATTENTION_VERSION'],
        [{ human_attention_item_id: randomUUID() }, 409, 'RUNNER_ATTENTION_SOURCE_MISMATCH'],
        [{ execution_id: randomUUID() }, 409, 'RUNNER_ATTENTION_SOURCE_MISMATCH'],
        [{ issueId: (await issueFor(a)).id }, 409, 'RUNNER_ATTENTION_SOURCE_MISMATCH'],
        [{ execution_id: 'x' }, 400, 'validation_failed'],
        [{ attention_source: 'chat' }, 400, 'validation_failed'],
        [{ expected_attention_version: undefined }, 400, 'validation_failed'],
      ];
      for (const [over, status, code] of cases) {
        const r = await a.api.post(claimPath()).send(body(over));
        expect([JSON.stringify(over), r.status, r.body.code]).toEqual([JSON.stringify(over), status, code]);
      }
      const plain = await a.api.post(claimPath()).send({ issueId: L.issueId, idempotencyKey: uniq('k'), execution_id: L.execId });
      expect(plain.status).toBe(400);

      const key = uniq('resume');
      const resumed = await a.api.post(claimPath()).send(body({ idempotencyKey: key }));
      expect(resumed.status).toBe(201);
      expect(resumed.body.lease).toMatchObject({
        claim_kind: 'human_attention',
        attention_item_id: itemId,
        execution_id: L.execId,
        claim_generation: 2,
        state: 'active',
      });
      expect((await t.db.query('SELECT state FROM runner_leases WHERE org_id = $1 AND id = $2', [org.id, L.id]))[0].state).toBe('replaced');
      expect((await L.write('renew')).body.code).toBe('RUNNER_LEASE_CLOSED');
      const replay = await a.api.post(claimPath()).send(body({ idempotencyKey: key }));
      expect([replay.status, replay.body.token_reissued, replay.body.lease.id]).toEqual([200, true, resumed.body.lease.id]);
      const twice = await a.api.post(claimPath()).send(body());
      expect([twice.status, twice.body.code]).toEqual([409, 'RUNNER_ATTENTION_ALREADY_CLAIMED']);

      const R = await a.api
        .patch(leasePath(resumed.body.lease.id))
        .send({ token: replay.body.token, claimGeneration: 2, sequence: 1, mutationId: randomUUID(), transition: 'started' });
      expect(R.status).toBe(200);
      expect((await a.api.get(exPath).expect(200)).body.execution.state).toBe('running');
      expect((await a.api.get(`/api/orgs/${org.id}/attention-items/${itemId}`).expect(200)).body.attention_item.unread).toBe(false);
    });

    it('human-attention resume from another installation of the agent is 409 RUNNER_ATTENTION_INSTALLATION_MISMATCH', async () => {
      const a = await connected();
      const L = await held(a);
      const exPath = `/api/orgs/${org.id}/agent-executions/${L.execId}`;
      const raised = await a.api
        .post(`${exPath}/attention`)
        .send({ idempotency_key: uniq('att'), title: 'Q', question: 'Q?' })
        .expect(201);
      await org.owner.http
        .post(`/api/orgs/${org.id}/attention-items/${raised.body.attention_item.id}/resolve`)
        .send({ answer: 'A', expected_version: 1 })
        .expect(200);
      await a.api.delete(self()).expect(200);
      await a.api.put(self()).send({ runner: fields() }).expect(201);
      const r = await a.api.post(claimPath()).send({
        issueId: L.issueId,
        idempotencyKey: uniq('resume'),
        attention_source: 'human_attention',
        execution_id: L.execId,
        human_attention_item_id: raised.body.attention_item.id,
        expected_attention_version: 2,
        expected_execution_version: 3,
      });
      expect([r.status, r.body.code]).toEqual([409, 'RUNNER_ATTENTION_INSTALLATION_MISMATCH']);
    });

    describe('attention claims', () => {
      /** A connected agent whose runner registered `hostId`. */
      const onHost = async (hostId: string) => {
        const a = await agent();
        const f = fields({ hostId });
        const r = await a.api.put(self()).send({ runner: f }).expect(201);
        return { ...a, runner: r.body.runner, instanceId: f.instanceId, fields: f };
      };
      const acked = async (id: string) =>
        (await t.db.query('SELECT acknowledged_at FROM notifications WHERE org_id = $1 AND id = $2', [org.id, id]))[0].acknowledged_at;
      const resumeBody = (issueId: string, noticeId: string, over: Record<string, unknown> = {}) => ({
        issueId,
        idempotencyKey: uniq('attn'),
        claimKind: 'attention_resume',
        attentionItemId: noticeId,
        runnerHostId: 'host-a',
        preservedThreadId: 'th-1',
        actionKind: 'resume_agent_thread',
        ...over,
      });

      it('attention_resume from an unread routed notification: every condition its own code, 4xx never 5xx, nothing changed on refusal', async () => {
        const a = await onHost('host-a');
        const issue = await issueFor(a);
        const notice = await routedNotice(a, issue.id, { harness: 'codex', thread_id: 'th-1', host_id: 'host-a' });
        const otherIssue = await issueFor(a);
        const b = await onHost('host-a');
        const bIssue = await issueFor(b);
        const bNotice = await routedNotice(b, bIssue.id, { thread_id: 'th-1' });
        const unrouted = await routedNotice(a, issue.id, null);
        const elsewhere = await routedNotice(a, issue.id, { thread_id: 'th-1', host_id: 'host-z' });
        const cases: Array<[Record<string, unknown>, number, string]> = [
          [{ runnerHostId: 'host-b' }, 409, 'RUNNER_ATTENTION_HOST_MISMATCH'],
          [{ attentionItemId: elsewhere }, 409, 'RUNNER_ATTENTION_HOST_MISMATCH'],
          [{ preservedThreadId: 'th-2' }, 409, 'RUNNER_ATTENTION_THREAD_MISMATCH'],
          [{ attentionItemId: unrouted }, 409, 'RUNNER_ATTENTION_THREAD_MISMATCH'],
          [{ actionKind: 'review_issue' }, 409, 'RUNNER_ATTENTION_ACTION_MISMATCH'],
          [{ issueId: otherIssue.id }, 409, 'RUNNER_ATTENTION_SOURCE_MISMATCH'],
          [{ attentionItemId: randomUUID() }, 404, 'RUNNER_ATTENTION_NOT_FOUND'],
          [{ attentionItemId: bNotice }, 404, 'RUNNER_ATTENTION_NOT_FOUND'],
          [{ actionKind: 'fly' }, 400, 'validation_failed'],
          [{ runnerHostId: undefined }, 400, 'validation_failed'],
          [{ preservedThreadId: undefined }, 400, 'validation_failed'],
          [{ actionKind: undefined }, 400, 'validation_failed'],
          [{ runnerHostId: 'h'.repeat(256) }, 400, 'validation_failed'],
          [{ preservedThreadId: '/home/me/.codex/threads/1' }, 400, 'validation_failed'],
          [{ runnerHostId: 42 }, 400, 'validation_failed'],
          [{ attentionItemId: 'not-a-uuid' }, 400, 'validation_failed'],
          [{ claimKind: 'telepathy' }, 400, 'validation_failed'],
          [{ claimKind: 'ordinary' }, 400, 'validation_failed'],
        ];
        for (const [over, status, code] of cases) {
          const r = await a.api.post(claimPath()).send(resumeBody(issue.id, notice, over));
          expect([JSON.stringify(over), r.status, r.body.code]).toEqual([JSON.stringify(over), status, code]);
        }
        expect(await liveLeases(issue.id)).toBe(0);
        expect(await acked(notice)).toBeNull();

        // the runner's registered host binds too
        const moved = await a.api.put(self()).send({ runner: { ...fields({ hostId: 'host-b' }), instanceId: a.instanceId } });
        expect(moved.status).toBe(200);
        const wrongHost = await a.api.post(claimPath()).send(resumeBody(issue.id, notice));
        expect([wrongHost.status, wrongHost.body.code]).toEqual([409, 'RUNNER_ATTENTION_HOST_MISMATCH']);
        await a.api
          .put(self())
          .send({ runner: { ...fields({ hostId: 'host-a' }), instanceId: a.instanceId } })
          .expect(200);

        // a notification already read
        const read = await routedNotice(a, issue.id, { thread_id: 'th-1' });
        await a.api.post(`/api/orgs/${org.id}/notifications/${read}/ack`).expect(200);
        const r = await a.api.post(claimPath()).send(resumeBody(issue.id, read));
        expect([r.status, r.body.code]).toEqual([409, 'RUNNER_ATTENTION_ALREADY_READ']);
        expect(await liveLeases(issue.id)).toBe(0);
      });

      it('claims, is unique in every state but orphaned, replays (untouched: new token; ended: acknowledgement only), and keeps one live lease per issue', async () => {
        const a = await onHost('host-a');
        const issue = await issueFor(a);
        const notice = await routedNotice(a, issue.id, { harness: 'codex', thread_id: 'th-1', host_id: 'host-a' });
        const key = uniq('attn');
        const c = await a.api.post(claimPath()).send(resumeBody(issue.id, notice, { idempotencyKey: key }));
        expect(c.status).toBe(201);
        expect(c.body.lease).toMatchObject({ claim_kind: 'attention_resume', notification_id: notice, attention_item_id: null, sequence: 0, state: 'active' });
        expect(typeof c.body.token).toBe('string');
        const ex = await a.api.get(`/api/orgs/${org.id}/agent-executions/${c.body.lease.execution_id}`).expect(200);
        expect(ex.body.execution).toMatchObject({ harness_kind: 'service_local_runner', external_run_id: c.body.lease.id });
        const [row] = await t.db.query('SELECT runner_host_id, thread_id FROM runner_leases WHERE org_id = $1 AND id = $2', [org.id, c.body.lease.id]);
        expect(row).toEqual({ runner_host_id: 'host-a', thread_id: 'th-1' });
        for (const set of ["thread_id = 'th-x'", "runner_host_id = 'host-x'", 'notification_id = NULL']) {
          await expect(t.db.query(`UPDATE runner_leases SET ${set} WHERE org_id = $1 AND id = $2`, [org.id, c.body.lease.id])).rejects.toThrow(
            /routing is fixed/,
          );
        }
        expect(await acked(notice)).toBeNull();

        // unique: a second claim of the notification, and any claim while the lease lives
        const twice = await a.api.post(claimPath()).send(resumeBody(issue.id, notice));
        expect([twice.status, twice.body.code]).toEqual([409, 'RUNNER_ATTENTION_ALREADY_CLAIMED']);
        const another = await routedNotice(a, issue.id, { thread_id: 'th-1' });
        const busy = await a.api.post(claimPath()).send(resumeBody(issue.id, another));
        expect([busy.status, busy.body.code]).toEqual([409, 'RUNNER_LEASE_HELD']);
        expect((await claim(a, issue.id)).body.code).toBe('RUNNER_LEASE_HELD');

        // untouched replay: a new token; then the lease works in its thread only
        const again = await a.api.post(claimPath()).send(resumeBody(issue.id, notice, { idempotencyKey: key }));
        expect([again.status, again.body.token_reissued, again.body.lease.id]).toEqual([200, true, c.body.lease.id]);
        const w = (seq: number, transition: string, extra: Record<string, unknown> = {}) =>
          a.api
            .patch(leasePath(c.body.lease.id))
            .send({ token: again.body.token, claimGeneration: c.body.lease.claim_generation, sequence: seq, mutationId: randomUUID(), transition, ...extra });
        const otherThread = await w(1, 'started', { threadId: 'th-other' });
        expect([otherThread.status, otherThread.body.code]).toEqual([409, 'RUNNER_LEASE_THREAD_MISMATCH']);
        expect((await w(1, 'renew', { threadId: 'th-1' })).status).toBe(400);
        await w(1, 'started', { threadId: 'th-1' }).expect(200);
        const midReplay = await a.api.post(claimPath()).send(resumeBody(issue.id, notice, { idempotencyKey: key }));
        expect([midReplay.status, midReplay.body.token, midReplay.body.notification_acknowledged]).toEqual([200, null, undefined]);
        await w(2, 'completed').expect(200);
        expect(await acked(notice)).toBeNull();

        // ended: the replay only acknowledges the notification (idempotent), and the attention stays consumed
        for (let i = 0; i < 2; i++) {
          const end = await a.api.post(claimPath()).send(resumeBody(issue.id, notice, { idempotencyKey: key }));
          expect([end.status, end.body.token, end.body.token_reissued, end.body.notification_acknowledged, end.body.lease.state]).toEqual([
            200,
            null,
            false,
            true,
            'completed',
          ]);
        }
        expect(await acked(notice)).not.toBeNull();
        const leases = await t.db.query('SELECT count(*)::int AS n FROM runner_leases WHERE org_id = $1 AND issue_id = $2', [org.id, issue.id]);
        expect(leases[0].n).toBe(1);
        const after = await a.api.post(claimPath()).send(resumeBody(issue.id, notice));
        expect([after.status, after.body.code]).toEqual([409, 'RUNNER_ATTENTION_ALREADY_CLAIMED']);
        const reused = await a.api.post(claimPath()).send(resumeBody(issue.id, another, { idempotencyKey: key }));
        expect([reused.status, reused.body.code]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);

        // an orphaned attention lease may be claimed again; its replay acknowledges nothing
        const oKey = uniq('o');
        const o = await a.api.post(claimPath()).send(resumeBody(issue.id, another, { idempotencyKey: oKey }));
        expect(o.status).toBe(201);
        await a.api
          .patch(leasePath(o.body.lease.id))
          .send({ token: o.body.token, claimGeneration: o.body.lease.claim_generation, sequence: 1, mutationId: randomUUID(), transition: 'orphaned' })
          .expect(200);
        const oReplay = await a.api.post(claimPath()).send(resumeBody(issue.id, another, { idempotencyKey: oKey }));
        expect([oReplay.status, oReplay.body.token, oReplay.body.notification_acknowledged, oReplay.body.lease.state]).toEqual([
          200,
          null,
          undefined,
          'orphaned',
        ]);
        const retried = await a.api.post(claimPath()).send(resumeBody(issue.id, another));
        expect(retried.status).toBe(201);
        expect(await acked(another)).toBeNull();
        expect(await liveLeases(issue.id)).toBe(1);
      });

      it('parallel attention claims of one notification: exactly one lease', async () => {
        const a = await onHost('host-a');
        const issue = await issueFor(a);
        const notice = await routedNotice(a, issue.id, { thread_id: 'th-1' });
        const results = await Promise.all(Array.from({ length: 5 }, () => a.api.post(claimPath()).send(resumeBody(issue.id, notice))));
        expect(results.filter((r) => r.status === 201)).toHaveLength(1);
        expect(results.filter((r) => r.status !== 201).every((r) => r.status === 409)).toBe(true);
        expect(await liveLeases(issue.id)).toBe(1);
      });

      it('canonical human-attention resume as an attention claim: answer notification unread, source lease, installation, host and retained thread', async () => {
        const a = await onHost('host-h');
        const L = await held(a);
        await L.ok('turn_intent_persisted', { threadId: 'th-9' });
        await L.ok('started');
        const retold = await L.write('started', { threadId: 'th-10' });
        expect([retold.status, retold.body.code]).toEqual([409, 'RUNNER_LEASE_THREAD_MISMATCH']);
        const exPath = `/api/orgs/${org.id}/agent-executions/${L.execId}`;
        const raised = await a.api
          .post(`${exPath}/attention`)
          .send({ idempotency_key: uniq('att'), title: 'Ship?', question: 'May I ship?' })
          .expect(201);
        const itemId = raised.body.attention_item.id;
        await org.owner.http.post(`/api/orgs/${org.id}/attention-items/${itemId}/resolve`).send({ answer: 'Yes', expected_version: 1 }).expect(200);
        const [answer] = await t.db.query(
          `SELECT id FROM notifications WHERE org_id = $1 AND recipient_member_id = $2 AND event_type = 'attention.resolved' AND metadata->>'attention_item_id' = $3`,
          [org.id, a.memberId, itemId],
        );
        const bare = (over: Record<string, unknown> = {}) => humanAttention(L, itemId, over);
        const ha = (over: Record<string, unknown> = {}) =>
          bare({
            claimKind: 'attention_resume',
            attentionItemId: answer.id,
            runnerHostId: 'host-h',
            preservedThreadId: 'th-9',
            actionKind: 'resume_agent_thread',
            ...over,
          });
        const otherNotice = await routedNotice(a, L.issueId, { thread_id: 'th-9' });
        const cases: Array<[Record<string, unknown>, number, string]> = [
          [ha({ preservedThreadId: 'th-other' }), 409, 'RUNNER_ATTENTION_THREAD_MISMATCH'],
          [bare(), 409, 'RUNNER_ATTENTION_THREAD_MISMATCH'],
          [ha({ runnerHostId: 'host-x' }), 409, 'RUNNER_ATTENTION_HOST_MISMATCH'],
          [ha({ attentionItemId: otherNotice }), 409, 'RUNNER_ATTENTION_SOURCE_MISMATCH'],
          [ha({ expected_execution_version: 3 }), 409, 'STALE_STATE_VERSION'],
          [ha({ expected_attention_version: 1 }), 409, 'STALE_ATTENTION_VERSION'],
          [ha({ attentionItemId: randomUUID() }), 404, 'RUNNER_ATTENTION_NOT_FOUND'],
        ];
        for (const [body, status, code] of cases) {
          const r = await a.api.post(claimPath()).send(body);
          expect([JSON.stringify(body), r.status, r.body.code]).toEqual([JSON.stringify(body), status, code]);
        }
        // the host the source lease was claimed on must still be the runner's
        await a.api
          .put(self())
          .send({ runner: { ...a.fields, hostId: 'host-moved' } })
          .expect(200);
        const moved = await a.api.post(claimPath()).send(bare({ preservedThreadId: 'th-9' }));
        expect([moved.status, moved.body.code]).toEqual([409, 'RUNNER_ATTENTION_HOST_MISMATCH']);
        await a.api.put(self()).send({ runner: a.fields }).expect(200);
        expect((await t.db.query('SELECT state FROM runner_leases WHERE org_id = $1 AND id = $2', [org.id, L.id]))[0].state).toBe('active');

        // by the attention item id as well as by the notification id
        const key = uniq('resume');
        const resumed = await a.api.post(claimPath()).send(ha({ idempotencyKey: key, attentionItemId: itemId }));
        expect(resumed.status).toBe(201);
        expect(resumed.body.lease).toMatchObject({
          claim_kind: 'human_attention',
          attention_item_id: itemId,
          notification_id: answer.id,
          execution_id: L.execId,
        });
        const twice = await a.api.post(claimPath()).send(ha());
        expect([twice.status, twice.body.code]).toEqual([409, 'RUNNER_ATTENTION_ALREADY_CLAIMED']);
        const R = { token: resumed.body.token, claimGeneration: resumed.body.lease.claim_generation };
        await a.api
          .patch(leasePath(resumed.body.lease.id))
          .send({ ...R, sequence: 1, mutationId: randomUUID(), transition: 'started', threadId: 'th-9' })
          .expect(200);
        await a.api
          .patch(leasePath(resumed.body.lease.id))
          .send({ ...R, sequence: 2, mutationId: randomUUID(), transition: 'completed' })
          .expect(200);
        expect(await acked(answer.id)).toBeNull();
        const end = await a.api.post(claimPath()).send(ha({ idempotencyKey: key, attentionItemId: itemId }));
        expect([end.status, end.body.notification_acknowledged, end.body.token]).toEqual([200, true, null]);
        expect(await acked(answer.id)).not.toBeNull();
        expect((await a.api.get(exPath).expect(200)).body.execution.state).toBe('completed');
      });

      it("verified workflow resume: bound through the agent's own delivery lease (host and thread) and the verification event; otherwise 409 binding mismatch, the notice unread", async () => {
        const a = await onHost('host-v');
        const issue = await issueFor(a);
        const notify = async (to: string, verification: Record<string, unknown>) =>
          (
            await t.db.query(
              `INSERT INTO notifications (org_id, recipient_member_id, event_type, severity, action_kind, issue_id, actor_type, title, metadata)
               VALUES ($1, $2, 'verification.completed', 'info', 'resume_agent_thread', $3, 'human', 'Workflow "CI" success', $4::jsonb) RETURNING id`,
              [org.id, to, issue.id, JSON.stringify({ verification })],
            )
          )[0].id as string;
        const verified = {
          verificationEventId: randomUUID(),
          repository: 'octo/widgets',
          pull_request: 7,
          workflow_run_id: 99,
          run_attempt: 1,
          conclusion: 'success',
        };
        const body = (notice: string, over: Record<string, unknown> = {}) =>
          resumeBody(issue.id, notice, { runnerHostId: 'host-v', preservedThreadId: 'th-d', ...over });
        const refused = async (notice: string, over: Record<string, unknown> = {}) => {
          const r = await a.api.post(claimPath()).send(body(notice, over));
          expect([r.status, r.body.code]).toEqual([409, 'RUNNER_LEASE_VERIFICATION_BINDING_MISMATCH']);
          expect(await acked(notice)).toBeNull();
        };
        // no delivery lease of the agent on the issue yet: review-only
        const early = await notify(a.memberId, verified);
        await refused(early);
        // the delivery run: a lease that learned its thread, then ended
        const c = await claim(a, issue.id).expect(201);
        const R = { token: c.body.token, claimGeneration: c.body.lease.claim_generation };
        await a.api
          .patch(leasePath(c.body.lease.id))
          .send({ ...R, sequence: 1, mutationId: randomUUID(), transition: 'started', threadId: 'th-d' })
          .expect(200);
        await a.api
          .patch(leasePath(c.body.lease.id))
          .send({ ...R, sequence: 2, mutationId: randomUUID(), transition: 'completed' })
          .expect(200);
        // another thread or host than the delivery's, or a verification naming no event: bound to another run
        await refused(early, { preservedThreadId: 'th-other' });
        const noEvent = await notify(a.memberId, { ...verified, verificationEventId: undefined });
        await refused(noEvent);
        // the delivery's host and thread: the resume is claimed and bound to the verification event
        const ok = await a.api.post(claimPath()).send(body(early)).expect(201);
        expect(ok.body.lease).toMatchObject({ claim_kind: 'attention_resume', notification_id: early });
        const [row] = await t.db.query('SELECT verification_event_id, thread_id, runner_host_id FROM runner_leases WHERE org_id = $1 AND id = $2', [
          org.id,
          ok.body.lease.id,
        ]);
        expect(row).toEqual({ verification_event_id: verified.verificationEventId, thread_id: 'th-d', runner_host_id: 'host-v' });
      });
    });

    it('one live lease per issue: another runner gets 409 RUNNER_LEASE_HELD; parallel claims on one issue: exactly one wins', async () => {
      const agents = await Promise.all([connected(), connected(), connected(), connected(), connected()]);
      const issue = await issueFor(...agents);
      const results = await Promise.all(agents.map((a) => claim(a, issue.id)));
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      const losers = results.filter((r) => r.status !== 201);
      expect(losers.map((r) => [r.status, r.body.code])).toEqual(Array(4).fill([409, 'RUNNER_LEASE_HELD']));
      expect(await liveLeases(issue.id)).toBe(1);
      const holder = agents[results.findIndex((r) => r.status === 201)];
      const again = await claim(holder, issue.id);
      expect([again.status, again.body.code]).toEqual([409, 'RUNNER_LEASE_HELD']);
    });

    it('the common writes take no serializing lock: a losing claim, a renewal and a presence refresh answer while the issue and agent locks are held', async () => {
      const [a, b] = [await connected(), await connected()];
      const issue = await issueFor(a, b);
      const L = await held(a, issue.id);
      // another session holds the issue's claim lock and b's presence lock for the whole test
      const qr = t.db.createQueryRunner();
      await qr.connect();
      try {
        await qr.query('SELECT pg_advisory_lock(hashtext($1)), pg_advisory_lock(hashtext($2))', [
          `runner_leases:${org.id}:${issue.id}`,
          `runner_installations:${org.id}:${b.memberId}`,
        ]);
        const lost = await claim(b, issue.id);
        expect([lost.status, lost.body.code]).toEqual([409, 'RUNNER_LEASE_HELD']);
        expect((await L.ok('renew')).body.lease.sequence).toBe(1);
        await b.api
          .put(self())
          .send({ runner: fields({ instanceId: b.instanceId }) })
          .expect(200);
        // a renewal reusing a mutationId with the next sequence is refused and changes nothing
        const first = L.body('renew');
        expect((await L.send(first)).status).toBe(200);
        const reuse = await L.send({ ...first, sequence: first.sequence + 1 });
        expect([reuse.status, reuse.body.code]).toEqual([409, 'RUNNER_LEASE_MUTATION_REUSED']);
        expect((await L.ok('renew')).body.lease.sequence).toBe(3);
      } finally {
        await qr.query('SELECT pg_advisory_unlock_all()');
        await qr.release();
      }
    });

    it('the database keeps one live lease per issue and closed leases closed, whatever the code does', async () => {
      const a = await connected();
      const L = await held(a);
      const row = (await t.db.query('SELECT * FROM runner_leases WHERE org_id = $1 AND id = $2', [org.id, L.id]))[0];
      await expect(
        t.db.query(
          `INSERT INTO runner_leases (org_id, id, issue_id, agent_member_id, runner_id, claim_generation, idempotency_key, request_hash, token_hash, expires_at)
           VALUES ($1, gen_random_uuid(), $2, $3, $4, 2, 'x', $5, $5, now() + interval '5 minutes')`,
          [org.id, L.issueId, a.memberId, a.runner.id, row.request_hash],
        ),
      ).rejects.toThrow(/runner_leases_one_live_uq/);
      await expect(t.db.query('UPDATE runner_leases SET sequence = 5 WHERE org_id = $1 AND id = $2', [org.id, L.id])).rejects.toThrow(/sequence moves by one/);
      await expect(t.db.query('UPDATE runner_leases SET claim_generation = 9 WHERE org_id = $1 AND id = $2', [org.id, L.id])).rejects.toThrow(
        /identity is fixed/,
      );
      await L.ok('completed');
      await expect(t.db.query(`UPDATE runner_leases SET state = 'active', ended_at = NULL WHERE org_id = $1 AND id = $2`, [org.id, L.id])).rejects.toThrow(
        /stays closed/,
      );
    });
  });

  describe('lease writes', () => {
    it('a renewal is a HOT update: no index of runner_leases covers a column it changes, and it adds no index entries', async () => {
      const changed = ['sequence', 'expires_at', 'updated_at'];
      const covering = await t.db.query(
        `SELECT i.indexrelid::regclass::text AS name FROM pg_index i
          WHERE i.indrelid = 'runner_leases'::regclass
            AND (EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey) AND a.attname = ANY ($1))
                 OR coalesce(pg_get_expr(i.indpred, i.indrelid), '') ~ ('\\m(' || array_to_string($1, '|') || ')\\M')
                 OR coalesce(pg_get_expr(i.indexprs, i.indrelid), '') ~ ('\\m(' || array_to_string($1, '|') || ')\\M'))`,
        [changed],
      );
      expect(covering).toEqual([]);
      const a = await connected();
      const L = await held(a);
      // the renewal's change, counted by the backend's statistics before and after, inside one
      // transaction: the counters also hold the connection's earlier statements until the backend
      // flushes them (when idle, about once a second), so only the difference is this update's
      const counts = await t.db.transaction(async (m) => {
        const read = async () =>
          (
            await m.query(
              `SELECT pg_stat_get_xact_tuples_updated('runner_leases'::regclass)::int AS updated, pg_stat_get_xact_tuples_hot_updated('runner_leases'::regclass)::int AS hot`,
            )
          )[0] as { updated: number; hot: number };
        const before = await read();
        await m.query(
          `UPDATE runner_leases SET sequence = sequence + 1, expires_at = now() + interval '300 seconds', updated_at = now() WHERE org_id = $1 AND id = $2`,
          [org.id, L.id],
        );
        const after = await read();
        return { updated: after.updated - before.updated, hot: after.hot - before.hot };
      });
      expect(counts).toEqual({ updated: 1, hot: 1 });
    });

    it('fencing: wrong token 403, wrong generation 409, reused or skipped sequence 409; correctly fenced writes still work', async () => {
      const a = await connected();
      const L = await held(a);
      await L.ok('renew');
      const cases: Array<[Record<string, unknown>, number, string]> = [
        [{ token: `rlt_${'x'.repeat(43)}` }, 403, 'RUNNER_LEASE_TOKEN_INVALID'],
        [{ claimGeneration: L.gen + 1 }, 409, 'RUNNER_LEASE_GENERATION_MISMATCH'],
        [{ sequence: L.seq }, 409, 'RUNNER_LEASE_SEQUENCE_MISMATCH'],
        [{ sequence: L.seq + 2 }, 409, 'RUNNER_LEASE_SEQUENCE_MISMATCH'],
      ];
      for (const [over, status, code] of cases) {
        const r = await L.send({ ...L.body('renew'), ...over });
        expect([code, r.status, r.body.code]).toEqual([code, status, code]);
      }
      // a token of another lease of the same agent
      const M = await held(a);
      const cross = await L.send({ ...L.body('renew'), token: M.token });
      expect([cross.status, cross.body.code]).toEqual([403, 'RUNNER_LEASE_TOKEN_INVALID']);
      // another agent's lease is concealed
      const b = await connected();
      expect((await b.api.patch(leasePath(L.id)).send(L.body('renew'))).status).toBe(404);
      expect((await a.api.patch(leasePath('not-a-uuid')).send(L.body('renew'))).status).toBe(404);
      expect((await a.api.patch(leasePath(randomUUID())).send(L.body('renew'))).status).toBe(404);
      expect((await org.owner.http.patch(leasePath(L.id)).send(L.body('renew'))).status).toBe(403);
      await L.ok('renew');
      expect((await t.db.query('SELECT sequence FROM runner_leases WHERE org_id = $1 AND id = $2', [org.id, L.id]))[0].sequence).toBe(2);
    });

    it('closed transition, progress and errorCode values; unknown fields and non-object bodies are 400 and change nothing', async () => {
      const a = await connected();
      const L = await held(a);
      const bad = [
        L.body('teleport'),
        L.body('progress', { progress: 'thinking really hard' }),
        L.body('progress'),
        L.body('failed', { errorCode: 'segfault' }),
        L.body('renew', { log: 'stack trace…' }),
        L.body('renew', { prompt: 'hi' }),
        { ...L.body('renew'), mutationId: 'x' },
        { ...L.body('renew'), sequence: 0 },
        { ...L.body('renew'), token: undefined },
      ];
      for (const b of bad) {
        const r = await L.send(b);
        expect([r.status, r.body.code]).toEqual([400, 'validation_failed']);
      }
      expect((await a.api.patch(leasePath(L.id)).set('content-type', 'application/json').send('"renew"')).status).toBe(400);
      expect((await t.db.query('SELECT sequence FROM runner_leases WHERE org_id = $1 AND id = $2', [org.id, L.id]))[0].sequence).toBe(0);
      await L.ok('progress', { progress: 'preparing' });
      const f = await L.ok('failed', { errorCode: 'runner_error' });
      expect(f.body.lease).toMatchObject({ state: 'failed', error_code: 'runner_error', progress: 'preparing' });
      const ex = await a.api.get(`/api/orgs/${org.id}/agent-executions/${L.execId}`).expect(200);
      expect(ex.body.execution.state).toBe('failed');
    });

    it('exact retries (same mutationId and body) answer the stored result without consuming a sequence; another body under the mutationId is 409', async () => {
      const a = await connected();
      const L = await held(a);
      const body = L.body('renew');
      const r1 = await L.send(body);
      const r2 = await L.send(body);
      expect([r1.status, r2.status]).toEqual([200, 200]);
      expect(r2.body).toEqual(r1.body);
      const reuse = await L.send({ ...body, transition: 'started' });
      expect([reuse.status, reuse.body.code]).toEqual([409, 'RUNNER_LEASE_MUTATION_REUSED']);
      await L.ok('renew');
      expect((await t.db.query('SELECT count(*)::int AS n FROM runner_lease_mutations WHERE org_id = $1 AND lease_id = $2', [org.id, L.id]))[0].n).toBe(2);
    });

    it('exact retries of state-changing writes (started, completed) answer the stored result and move the execution once', async () => {
      const a = await connected();
      const L = await held(a);
      for (const transition of ['started', 'completed']) {
        const body = L.body(transition);
        const first = await L.send(body);
        const again = await L.send(body);
        expect([first.status, again.status]).toEqual([200, 200]);
        expect(again.body).toEqual(first.body);
      }
      const moves = await t.db.query('SELECT to_state FROM agent_execution_transitions WHERE org_id = $1 AND execution_id = $2 ORDER BY state_version', [
        org.id,
        L.execId,
      ]);
      expect(moves.map((r: { to_state: string }) => r.to_state)).toEqual(['assigned', 'running', 'completed']);
      const stored = await t.db.query('SELECT transition, sequence FROM runner_lease_mutations WHERE org_id = $1 AND lease_id = $2 ORDER BY sequence', [
        org.id,
        L.id,
      ]);
      expect(stored).toEqual([
        { transition: 'started', sequence: 1 },
        { transition: 'completed', sequence: 2 },
      ]);
    });

    it('lifecycle: intent → started (execution running) → model_completed → completed (execution completed); closed leases refuse writes', async () => {
      const a = await connected();
      const L = await held(a);
      expect((await L.ok('turn_intent_persisted')).body.lease.phase).toBe('intent_persisted');
      expect((await L.ok('started')).body.lease.phase).toBe('started');
      expect((await a.api.get(`/api/orgs/${org.id}/agent-executions/${L.execId}`).expect(200)).body.execution.state).toBe('running');
      await L.ok('progress', { progress: 'running' });
      expect((await L.ok('model_completed')).body.lease.phase).toBe('model_completed');
      const done = await L.ok('completed');
      expect(done.body.lease).toMatchObject({ state: 'completed', sequence: 5 });
      expect(done.body.lease.ended_at).not.toBeNull();
      expect((await a.api.get(`/api/orgs/${org.id}/agent-executions/${L.execId}`).expect(200)).body.execution.state).toBe('completed');
      const after = await L.write('renew');
      expect([after.status, after.body.code]).toEqual([409, 'RUNNER_LEASE_CLOSED']);
      // the issue is free again: the next claim gets generation 2
      const next = await claim(a, L.issueId).expect(201);
      expect(next.body.lease.claim_generation).toBe(2);
    });

    it('orphaned only before intent; uncertain_outcome blocks automatic replacement until acknowledged; aborted cancels the execution', async () => {
      const a = await connected();
      const L = await held(a);
      await L.ok('turn_intent_persisted');
      const o = await L.write('orphaned');
      expect([o.status, o.body.code]).toEqual([409, 'RUNNER_LEASE_NOT_PRE_INTENT']);
      await L.ok('uncertain_outcome');
      const b = await connected();
      await t.db.query('INSERT INTO issue_assignees (org_id, issue_id, member_id) VALUES ($1, $2, $3)', [org.id, L.issueId, b.memberId]);
      await t.db.query(`UPDATE runner_leases SET expires_at = now() - interval '1 hour' WHERE org_id = $1 AND id = $2`, [org.id, L.id]);
      const blocked = await claim(b, L.issueId);
      expect([blocked.status, blocked.body.code]).toEqual([409, 'RUNNER_LEASE_UNCERTAIN']);
      expect((await L.write('renew')).body.code).toBe('RUNNER_LEASE_CLOSED');
      expect((await L.write('acknowledge')).status).toBe(200);
      await claim(b, L.issueId).expect(201);

      const P = await held(a);
      expect((await P.ok('orphaned')).body.lease.state).toBe('orphaned');
      expect((await a.api.get(`/api/orgs/${org.id}/agent-executions/${P.execId}`).expect(200)).body.execution.state).toBe('cancelled');
      const Q = await held(a);
      await Q.ok('aborted');
      expect((await a.api.get(`/api/orgs/${org.id}/agent-executions/${Q.execId}`).expect(200)).body.execution.state).toBe('cancelled');
      const ack = await Q.write('acknowledge');
      expect([ack.status, ack.body.code]).toEqual([409, 'RUNNER_LEASE_NOT_UNCERTAIN']);
    });

    it('expiry: an unrenewed lease expires by itself; the issue is reclaimed with a higher generation; the stale holder is fenced out', async () => {
      const a = await connected();
      const b = await connected();
      const issue = await issueFor(a, b);
      const L = await held(a, issue.id);
      await L.ok('started');
      const busy = await claim(b, issue.id);
      expect([busy.status, busy.body.code]).toEqual([409, 'RUNNER_LEASE_HELD']);
      await t.db.query(`UPDATE runner_leases SET expires_at = now() - interval '1 second' WHERE org_id = $1 AND id = $2`, [org.id, L.id]);
      const late = await L.write('renew');
      expect([late.status, late.body.code]).toEqual([409, 'RUNNER_LEASE_EXPIRED']);
      const c = await claim(b, issue.id).expect(201);
      expect(c.body.lease.claim_generation).toBe(L.gen + 1);
      const stale = await L.write('completed');
      expect([stale.status, stale.body.code]).toEqual([409, 'RUNNER_LEASE_CLOSED']);
      expect(await liveLeases(issue.id)).toBe(1);
      const states = await t.db.query('SELECT claim_generation, state FROM runner_leases WHERE org_id = $1 AND issue_id = $2 ORDER BY claim_generation', [
        org.id,
        issue.id,
      ]);
      expect(states).toEqual([
        { claim_generation: 1, state: 'expired' },
        { claim_generation: 2, state: 'active' },
      ]);
    });

    it('the worker sweep expires due leases (and only those)', async () => {
      const a = await connected();
      const due = await held(a);
      const fresh = await held(a);
      await t.db.query(`UPDATE runner_leases SET expires_at = now() - interval '1 second' WHERE org_id = $1 AND id = $2`, [org.id, due.id]);
      const sweep = new LeaseExpirySweep(t.app.get(LeasesRepository, { strict: false }));
      expect(await sweep.sweep()).toBeGreaterThanOrEqual(1);
      const rows = await t.db.query('SELECT id, state FROM runner_leases WHERE org_id = $1 AND id = ANY($2::uuid[])', [org.id, [due.id, fresh.id]]);
      expect(Object.fromEntries(rows.map((r: { id: string; state: string }) => [r.id, r.state]))).toEqual({ [due.id]: 'expired', [fresh.id]: 'active' });
    });

    it('the worker sweep deletes lease write records past their 24-hour retention (and only those); a retry of a deleted one is a new write', async () => {
      const a = await connected();
      const L = await held(a);
      const old = L.body('renew');
      expect((await L.send(old)).status).toBe(200);
      const kept = L.body('renew');
      const keptAnswer = await L.send(kept);
      expect(keptAnswer.status).toBe(200);
      const records = async () =>
        (await t.db.query('SELECT sequence FROM runner_lease_mutations WHERE org_id = $1 AND lease_id = $2 ORDER BY sequence', [org.id, L.id])).map(
          (r: { sequence: number }) => r.sequence,
        );
      expect(await records()).toEqual([1, 2]);
      await t.db.query(
        `UPDATE runner_lease_mutations SET created_at = now() - interval '24 hours 1 minute' WHERE org_id = $1 AND lease_id = $2 AND sequence = 1`,
        [org.id, L.id],
      );
      // a record inside its retention stays, and its exact retry answers the stored result
      await t.db.query(`UPDATE runner_lease_mutations SET created_at = now() - interval '23 hours' WHERE org_id = $1 AND lease_id = $2 AND sequence = 2`, [
        org.id,
        L.id,
      ]);
      const sweep = new LeaseExpirySweep(t.app.get(LeasesRepository, { strict: false }));
      await sweep.sweep();
      expect(await records()).toEqual([2]);
      const retry = await L.send(old);
      expect([retry.status, retry.body.code]).toEqual([409, 'RUNNER_LEASE_SEQUENCE_MISMATCH']);
      const again = await L.send(kept);
      expect([again.status, again.body]).toEqual([200, keptAnswer.body]);
      await L.ok('renew');
    });

    it("only a proven pre-intent orphan is replaced: a gone runner's untouched lease is taken over, a post-intent one is not", async () => {
      const a = await connected();
      const b = await connected();
      const i1 = await issueFor(a, b);
      const i2 = await issueFor(a, b);
      const pre = await held(a, i1.id);
      const post = await held(a, i2.id);
      await post.ok('turn_intent_persisted');
      await a.api.delete(self()).expect(200);
      const took = await claim(b, i1.id).expect(201);
      expect(took.body.lease.claim_generation).toBe(2);
      expect((await t.db.query('SELECT state FROM runner_leases WHERE org_id = $1 AND id = $2', [org.id, pre.id]))[0].state).toBe('replaced');
      expect((await b.api.get(`/api/orgs/${org.id}/agent-executions/${pre.execId}`).expect(200)).body.execution.state).toBe('cancelled');
      const refused = await claim(b, i2.id);
      expect([refused.status, refused.body.code]).toEqual([409, 'RUNNER_LEASE_HELD']);
      // the disconnected holder cannot write, even after reconnecting under a new installation
      await a.api.put(self()).send({ runner: fields() }).expect(201);
      expect((await post.write('renew')).body.code).toBe('RUNNER_LEASE_RUNNER_FENCED');
    });
  });

  describe('random interleavings on two API processes sharing one database', () => {
    let t2: TestApp;
    beforeAll(async () => {
      t2 = await startTestApp(); // a second application (own pool, own process state) on the same database
    });
    afterAll(() => t2.close());

    // fast-check draws each interleaving: every random choice of a run (which runner, process,
    // operation, issue, notice) is the next value of a generated list, so a failure is reported with
    // fast-check's seed and path, replays with them, and shrinks towards simpler choices
    let run = 0;
    const interleaving = async (choices: number[]) => {
      const seed = ++run;
      let next = 0;
      const rnd = () => choices[next++ % choices.length];
      const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)];
      const apps = [t, t2];
      const runners: Array<Agent & { key: string; instanceId: string }> = [];
      for (let i = 0; i < 3; i++) {
        const a = await newAgent(t, org, { projectIds: [proj.id] });
        const instanceId = randomUUID();
        await bearer(t, a.key)
          .put(self())
          .send({ runner: fields({ instanceId }) })
          .expect(201);
        runners.push({ memberId: a.memberId, api: bearer(t, a.key), key: a.key, instanceId });
      }
      const issues = [await issueFor(...runners), await issueFor(...runners)];
      type Known = { id: string; issueId: string; token: string; gen: number; seq: number; key: string; body?: Record<string, unknown> };
      const notices = new Map<string, string[]>(runners.map((r) => [r.memberId, []]));
      const known = new Map<string, Known[]>(runners.map((r) => [r.memberId, []]));
      let accepted = 0;
      // first, every runner races for the first issue through both processes at once: exactly one wins
      const race = await Promise.all(
        runners.map((r, k) =>
          bearer(apps[k % 2], r.key)
            .post(claimPath())
            .send({ issueId: issues[0].id, idempotencyKey: `race-${seed}-${k}` }),
        ),
      );
      expect(race.filter((c) => c.status === 201)).toHaveLength(1);
      race.forEach((c, k) => {
        if (c.status === 201)
          known.get(runners[k].memberId)!.push({ id: c.body.lease.id, issueId: issues[0].id, token: c.body.token, gen: 1, seq: 0, key: `race-${seed}-${k}` });
      });

      for (let step = 0; step < 30; step++) {
        const r = pick(runners);
        const api = bearer(pick(apps), r.key);
        const op = pick([
          'claim',
          'claim',
          'attention',
          'attention',
          'renew',
          'renew',
          'replay',
          'replay',
          'stale',
          'disconnect',
          'reconnect',
          'expire',
          'restart',
          'intent',
          'end',
        ]);
        const mine = known.get(r.memberId)!;
        if (op === 'claim') {
          const key = uniq('k');
          const issueId = pick(issues).id;
          const c = await api.post(claimPath()).send({ issueId, idempotencyKey: key });
          expect([200, 201, 409]).toContain(c.status);
          if (c.status === 201) mine.push({ id: c.body.lease.id, issueId, token: c.body.token, gen: c.body.lease.claim_generation, seq: 0, key });
        } else if (op === 'attention') {
          // an attention claim of a new notification, or again of one this agent already has (then unique: 409)
          const issueId = pick(issues).id;
          const pool = notices.get(r.memberId)!;
          const n = pool.length && rnd() < 0.4 ? pick(pool) : await routedNotice(r, issueId, { thread_id: `th-${seed}` });
          if (!pool.includes(n)) pool.push(n);
          const key = uniq('a');
          const body = {
            issueId,
            idempotencyKey: key,
            claimKind: 'attention_resume',
            attentionItemId: n,
            runnerHostId: 'host',
            preservedThreadId: `th-${seed}`,
            actionKind: 'resume_agent_thread',
          };
          const c = await api.post(claimPath()).send(body);
          expect([201, 404, 409]).toContain(c.status);
          if (c.status === 201) {
            mine.push({ id: c.body.lease.id, issueId, token: c.body.token, gen: c.body.lease.claim_generation, seq: 0, key, body });
            // one attention lease per notification in every state but orphaned
            const [u] = await t.db.query(`SELECT count(*)::int AS n FROM runner_leases WHERE org_id = $1 AND notification_id = $2 AND state <> 'orphaned'`, [
              org.id,
              n,
            ]);
            expect(u.n).toBe(1);
          }
        } else if (op === 'end' && mine.length) {
          const l = pick(mine);
          const w = await api.patch(leasePath(l.id)).send({
            token: l.token,
            claimGeneration: l.gen,
            sequence: l.seq + 1,
            mutationId: randomUUID(),
            transition: pick(['completed', 'orphaned', 'failed']),
          });
          expect([200, 403, 409]).toContain(w.status);
          if (w.status === 200) l.seq++;
        } else if (op === 'replay' && mine.length) {
          const l = pick(mine);
          const c = await api.post(claimPath()).send(l.body ?? { issueId: l.issueId, idempotencyKey: l.key });
          expect([200, 409]).toContain(c.status);
          // an ended attention lease's replay acknowledges and never reissues
          if (c.status === 200 && c.body.notification_acknowledged) expect([c.body.token, c.body.lease.state === 'active']).toEqual([null, false]);
          if (c.status === 200 && c.body.token) l.token = c.body.token;
        } else if ((op === 'renew' || op === 'intent' || op === 'stale') && mine.length) {
          const l = pick(mine);
          const body = {
            token: op === 'stale' ? `rlt_${randomUUID()}` : l.token,
            claimGeneration: l.gen,
            sequence: l.seq + 1,
            mutationId: randomUUID(),
            transition: op === 'intent' ? 'turn_intent_persisted' : 'renew',
          };
          const w = await api.patch(leasePath(l.id)).send(body);
          expect([200, 403, 409]).toContain(w.status);
          if (op === 'stale') expect(w.status).not.toBe(200);
          if (w.status === 200) {
            accepted++;
            l.seq++;
            // the holder was not fenced out: its lease is the newest of the issue and its runner the agent's current, connected one
            const [row] = await t.db.query(
              `SELECT l.claim_generation = (SELECT max(claim_generation) FROM runner_leases x WHERE x.org_id = l.org_id AND x.issue_id = l.issue_id) AS newest,
                        r.replaced_at IS NULL AND r.disconnected_at IS NULL AS current_runner, l.state
                   FROM runner_leases l JOIN runner_installations r ON r.org_id = l.org_id AND r.id = l.runner_id WHERE l.org_id = $1 AND l.id = $2`,
              [org.id, l.id],
            );
            expect([op, row]).toEqual([op, { newest: true, current_runner: true, state: 'active' }]);
          }
        } else if (op === 'disconnect') {
          await api.delete(self()).expect(200);
        } else if (op === 'reconnect') {
          expect([200, 201, 409]).toContain((await api.put(self()).send({ runner: fields({ instanceId: r.instanceId }) })).status);
        } else if (op === 'restart') {
          // the process restarts as a new installation: it must first let go of the old one
          await api.delete(self()).expect(200);
          r.instanceId = randomUUID();
          await api
            .put(self())
            .send({ runner: fields({ instanceId: r.instanceId }) })
            .expect(201);
        } else if (op === 'expire') {
          await t.db.query(`UPDATE runner_leases SET expires_at = now() - interval '1 second' WHERE org_id = $1 AND issue_id = $2 AND state = 'active'`, [
            org.id,
            pick(issues).id,
          ]);
        }
        // (invariant checked below for both issues)
        const counts = await Promise.all(issues.map((i) => liveLeases(i.id)));
        expect(counts.every((n) => n <= 1)).toBe(true);
      }
      // the run did something: at least one claim per issue was made across the interleaving
      const claims = await t.db.query('SELECT count(*)::int AS n FROM runner_leases WHERE org_id = $1 AND issue_id = ANY($2::uuid[])', [
        org.id,
        issues.map((i) => i.id),
      ]);
      expect(claims[0].n).toBeGreaterThan(0);
      expect(accepted).toBeGreaterThanOrEqual(0);
    };

    it('claims, attention claims, renewals, replays, ends, disconnects, expiries and restarts never give two live leases on an issue or accept a fenced-out write (fast-check, 5 interleavings)', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { minLength: 64, maxLength: 256 }), interleaving),
        { numRuns: 5 },
      );
      expect(run).toBe(5); // every interleaving ran (none was skipped)
    }, 600_000);
  });

  describe('rate limiter without Redis', () => {
    let redis: PrivateRedis;
    let t2: TestApp;
    beforeAll(async () => {
      redis = await startPrivateRedis('runners');
      t2 = await startTestApp({ REDIS_URL: redis.url });
    });
    afterAll(async () => {
      await t2?.close().catch(() => undefined);
      await redis?.stop();
    });

    it('fails closed: 503 RATE_LIMIT_CHECK_FAILED when its Redis stops, never an unlimited pass', async () => {
      const org2 = await newOrg(t2);
      const p2 = await newProject(t2, org2);
      const a = await newAgent(t2, org2, { projectIds: [p2.id] });
      const api = bearer(t2, a.key);
      await api.put(`/api/orgs/${org2.id}/runners/self`).send({ runner: fields() }).expect(201);
      await redis.stop();
      const r = await api.put(`/api/orgs/${org2.id}/runners/self`).send({ runner: fields() });
      expect([r.status, r.body.code]).toEqual([503, 'RATE_LIMIT_CHECK_FAILED']);
    });
  });
});
