import { randomUUID } from 'node:crypto';
import { actorForMember } from '../../src/common/auth/principal';
import { ExecutionAttentionReader } from '../../src/modules/executions/execution-attention.reader';
import { startTestApp, type TestApp } from '../support/app';
import { bearer, newAgent, newProject, type TestOrg, type TestUser, uniq } from '../support/factories';
import { insertIssue, workTrackingWorld } from '../support/issues';
import { insertWebhookRow } from '../support/webhooks';

/**
 * Agent executions (issue 15): create / list / detail / transitions / evidence / cancel, the
 * attention contract (raise, resolve, cancel, acknowledge), idempotency keys, version fences,
 * credential and path rejection, access (404 concealment vs 403) and the database's own guards.
 */
describe('agent executions', () => {
  let t: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  let member: TestUser;
  let proj: { id: string };
  let hidden: { id: string };
  let edit: { memberId: string; api: ReturnType<typeof bearer> };
  let view: { memberId: string; api: ReturnType<typeof bearer> };
  let outsider: { memberId: string; api: ReturnType<typeof bearer> };
  let foreign: { memberId: string; api: ReturnType<typeof bearer> };
  const base = () => `/api/orgs/${org.id}/agent-executions`;
  const item = (id: string, action = '') => `/api/orgs/${org.id}/attention-items/${id}${action ? `/${action}` : ''}`;

  const agentOn = async (o: TestOrg, projectId: string, level: 'view' | 'edit') => {
    const a = await newAgent(t, o, { projectIds: [projectId] });
    if (level !== 'edit')
      await o.owner.http.patch(`/api/orgs/${o.id}/projects/${projectId}/members`).send({ memberId: a.memberId, accessLevel: level }).expect(200);
    return { memberId: a.memberId, api: bearer(t, a.key) };
  };
  const issue = async (projectId = proj.id) => insertIssue(t, org.id, projectId, { status: 'todo', assigneeId: edit.memberId });
  const create = async (extra: Record<string, unknown> = {}, who = edit) => {
    const i = await issue();
    const body = { issue_id: i.id, agent_member_id: who.memberId, idempotency_key: uniq('k'), ...extra };
    const r = await who.api.post(base()).send(body);
    return { r, body, ex: r.body.execution };
  };
  const move = (api: ReturnType<typeof bearer>, id: string, v: number, to: string, key = uniq('tr'), extra: Record<string, unknown> = {}) =>
    api.post(`${base()}/${id}/transitions`).send({ expected_state_version: v, to_state: to, idempotency_key: key, ...extra });
  const get = async (id: string) => (await edit.api.get(`${base()}/${id}`).expect(200)).body.execution;
  const raise = async (exId: string, who = edit) =>
    who.api
      .post(`${base()}/${exId}/attention`)
      .send({ idempotency_key: uniq('att'), title: 'Which database?', question: 'Postgres or SQLite?', options: ['Postgres', 'SQLite'] });

  beforeAll(async () => {
    t = await startTestApp();
    ({ org, other, member, proj, hidden } = await workTrackingWorld(t));
    edit = await agentOn(org, proj.id, 'edit');
    view = await agentOn(org, proj.id, 'view');
    outsider = await agentOn(org, hidden.id, 'edit');
    const otherProj = await newProject(t, other);
    foreign = await agentOn(other, otherProj.id, 'edit');
  });
  afterAll(() => t.close());

  it('creates an execution in assigned at version 1 with every field; actor provenance from the server', async () => {
    const { r, body } = await create({ harness_kind: 'codex', external_run_id: 'run-42', reason: 'Start the importer' });
    expect(r.status).toBe(201);
    const ex = r.body.execution;
    expect(ex).toMatchObject({
      issue_id: body.issue_id,
      current_project_id: proj.id,
      project_id_at_creation: proj.id,
      state: 'assigned',
      state_version: 1,
      harness_kind: 'codex',
      external_run_id: 'run-42',
      reason: 'Start the importer',
      agent_member_id: edit.memberId,
      agent: { id: edit.memberId, type: 'agent', deleted: false },
      created_by: { id: edit.memberId, type: 'agent', deleted: false },
    });
    const text = JSON.stringify(r.body);
    expect(text).not.toMatch(/hash|token|idempotency/i);
    const detail = await get(ex.id);
    expect(detail.transitions).toEqual([expect.objectContaining({ from_state: null, to_state: 'assigned', state_version: 1, via: 'create' })]);
    expect(detail.evidence).toEqual([]);
  });

  it('create is idempotent: same key and body answer the original; another body 409; parallel requests make one execution', async () => {
    const { r, body } = await create();
    const again = await edit.api.post(base()).send(body);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(r.body);
    const other2 = await issue();
    const reuse = await edit.api.post(base()).send({ ...body, issue_id: other2.id });
    expect(reuse.status).toBe(409);
    expect(reuse.body.code).toBe('IDEMPOTENCY_KEY_REUSED');

    const i = await issue();
    const parallel = { issue_id: i.id, agent_member_id: edit.memberId, idempotency_key: uniq('par') };
    const results = await Promise.all(Array.from({ length: 6 }, () => edit.api.post(base()).send(parallel)));
    expect(results.map((x) => x.status)).toEqual(Array(6).fill(201));
    expect(new Set(results.map((x) => x.body.execution.id)).size).toBe(1);
    const rows = await t.db.query('SELECT count(*)::int AS n FROM agent_executions WHERE org_id = $1 AND issue_id = $2', [org.id, i.id]);
    expect(rows[0].n).toBe(1);
  });

  it('refuses credentials, tokens and local paths in harness_kind and external_run_id (400, nothing stored); legacy unsafe values read as null', async () => {
    const bad = [
      { external_run_id: '/home/dev/.codex/sessions/run.jsonl' },
      { external_run_id: 'C:\\Users\\dev\\run.log' },
      { external_run_id: '~/.ssh/id_ed25519' },
      { external_run_id: 'file:///etc/passwd' },
      { external_run_id: '../../etc/passwd' },
      { external_run_id: `sk_service_${'ab12'.repeat(10)}` },
      { external_run_id: `ghp_${'a1B2'.repeat(9)}` },
      { external_run_id: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln' },
      { external_run_id: 'token=0123456789abcdef' },
      { harness_kind: '/usr/local/bin/codex' },
      { harness_kind: `sk-proj-${'x1Y2'.repeat(6)}` },
      { harness_kind: 'x'.repeat(65) },
    ];
    for (const extra of bad) {
      const { r, body } = await create({ harness_kind: 'codex', external_run_id: 'run-1', ...extra });
      expect([r.status, r.body.code]).toEqual([400, 'validation_failed']);
      const n = await t.db.query('SELECT count(*)::int AS n FROM agent_executions WHERE org_id = $1 AND issue_id = $2', [org.id, body.issue_id]);
      expect(n[0].n).toBe(0);
    }
    const { ex } = await create({ harness_kind: 'codex', external_run_id: 'run-legacy' });
    await t.db.query(
      `UPDATE agent_executions SET external_run_id = '/Users/dev/run.log', harness_kind = 'ghp_${'a1B2'.repeat(9)}' WHERE org_id = $1 AND id = $2`,
      [org.id, ex.id],
    );
    const after = await get(ex.id);
    expect([after.external_run_id, after.harness_kind]).toEqual([null, null]);
  });

  it('bad input: a clear 4xx in the error shape, never a 5xx, nothing changed', async () => {
    const i = await issue();
    const cases: Array<[unknown, number]> = [
      [{}, 400],
      [{ issue_id: 'nope', agent_member_id: edit.memberId, idempotency_key: 'k' }, 400],
      [{ issue_id: i.id, agent_member_id: edit.memberId }, 400],
      [{ issue_id: i.id, agent_member_id: edit.memberId, idempotency_key: 'x'.repeat(201) }, 400],
      [{ issue_id: i.id, agent_member_id: edit.memberId, idempotency_key: 'k', reason: 'r'.repeat(2001) }, 400],
      [{ issue_id: i.id, agent_member_id: edit.memberId, idempotency_key: 'k', harness_kind: 5 }, 400],
      [{ issue_id: randomUUID(), agent_member_id: edit.memberId, idempotency_key: 'k' }, 404],
      [{ issue_id: i.id, agent_member_id: randomUUID(), idempotency_key: 'k' }, 422],
    ];
    for (const [body, status] of cases) {
      const r = await edit.api.post(base()).send(body as object);
      expect([r.status, typeof r.body.error]).toEqual([status, 'string']);
    }
    for (const raw of ['[1,2]', '"text"', '42']) {
      const r = await edit.api.post(base()).set('content-type', 'application/json').send(raw);
      expect(r.status).toBe(400);
      expect(typeof r.body.error).toBe('string');
    }
    // a human member is no agent
    const human = await edit.api.post(base()).send({ issue_id: i.id, agent_member_id: org.ownerMemberId, idempotency_key: uniq('h') });
    expect([human.status, human.body.code]).toEqual([422, 'AGENT_MEMBER_INVALID']);
    const n = await t.db.query('SELECT count(*)::int AS n FROM agent_executions WHERE org_id = $1 AND issue_id = $2', [org.id, i.id]);
    expect(n[0].n).toBe(0);
    const tr = await move(edit.api, (await create()).ex.id, 1, 'teleported');
    expect([tr.status, tr.body.code]).toEqual([400, 'validation_failed']);
    const big = await move(edit.api, (await create()).ex.id, 1, 'running', uniq('k'), { summary: 's'.repeat(4001) });
    expect(big.status).toBe(400);
    expect((await edit.api.get(`${base()}/not-a-uuid`)).status).toBe(404);
    expect((await edit.api.get(`${base()}?state=sleeping`)).status).toBe(400);
    expect((await edit.api.get(`${base()}?issue_id=x`)).status).toBe(400);
  });

  it('every allowed generic move, each bumping state_version by one and recorded in order', async () => {
    const paths: string[][] = [
      ['running', 'waiting', 'running', 'completed'],
      ['waiting', 'cancelled'],
      ['running', 'failed'],
      ['cancelled'],
      ['running', 'cancelled'],
      ['waiting', 'running', 'waiting', 'cancelled'],
    ];
    for (const path of paths) {
      const { ex } = await create();
      let v = 1;
      for (const to of path) {
        const r = await move(edit.api, ex.id, v, to);
        expect([to, r.status, r.body.execution?.state]).toEqual([to, 200, to]);
        expect(r.body.execution.state_version).toBe(v + 1);
        v++;
      }
      const detail = await get(ex.id);
      expect(detail.transitions.map((x: { to_state: string }) => x.to_state)).toEqual(['assigned', ...path]);
      expect(detail.transitions.map((x: { state_version: number }) => x.state_version)).toEqual(path.map((_, k) => k + 2).reduce((a, b) => [...a, b], [1]));
      expect(detail.ended_at === null).toBe(!['completed', 'failed', 'cancelled'].includes(path.at(-1)!));
      // each move is on the issue's timeline, in its current project, with its versions
      const timeline: Array<{ project_id: string | null; metadata: Record<string, unknown> }> = await t.db.query(
        `SELECT project_id, metadata FROM activity_events WHERE org_id = $1 AND action = 'agent_execution.state_changed' AND metadata->>'execution_id' = $2
          ORDER BY (metadata->>'state_version')::int`,
        [org.id, ex.id],
      );
      expect(timeline.map((e) => [e.project_id, e.metadata.from_state, e.metadata.to_state, e.metadata.state_version])).toEqual(
        path.map((to, k) => [proj.id, k === 0 ? 'assigned' : path[k - 1], to, k + 2]),
      );
    }
  });

  it('refused moves are 409 with a code naming the rule, and change nothing', async () => {
    const { ex } = await create();
    const refused: Array<[string, string]> = [
      ['completed', 'EXECUTION_TRANSITION_NOT_ALLOWED'],
      ['failed', 'EXECUTION_TRANSITION_NOT_ALLOWED'],
      ['assigned', 'EXECUTION_TRANSITION_NOT_ALLOWED'],
      ['needs_human', 'ATTENTION_CONTRACT_REQUIRED'],
    ];
    for (const [to, code] of refused) {
      const r = await move(edit.api, ex.id, 1, to);
      expect([to, r.status, r.body.code]).toEqual([to, 409, code]);
    }
    await move(edit.api, ex.id, 1, 'waiting').expect(200);
    const w = await move(edit.api, ex.id, 2, 'completed');
    expect([w.status, w.body.code]).toEqual([409, 'EXECUTION_TRANSITION_NOT_ALLOWED']);
    const stale = await move(edit.api, ex.id, 1, 'running');
    expect([stale.status, stale.body.code, stale.body.current_state_version]).toEqual([409, 'STALE_STATE_VERSION', 2]);
    const future = await move(edit.api, ex.id, 9, 'running');
    expect([future.status, future.body.code]).toEqual([409, 'STALE_STATE_VERSION']);
    await move(edit.api, ex.id, 2, 'cancelled').expect(200);
    for (const to of ['running', 'waiting', 'completed', 'cancelled']) {
      const r = await move(edit.api, ex.id, 3, to);
      expect([to, r.status, r.body.code]).toEqual([to, 409, 'EXECUTION_TERMINAL']);
    }
    const after = await get(ex.id);
    expect([after.state, after.state_version, after.transitions.length]).toEqual(['cancelled', 3, 3]);
    const again = await edit.api.post(`${base()}/${ex.id}/cancel`).send({});
    expect([again.status, again.body.code]).toEqual([409, 'EXECUTION_TERMINAL']);
  });

  it('transitions are idempotent per key; a reused key with another body is 409; parallel moves on one version: exactly one wins', async () => {
    const { ex } = await create();
    const key = uniq('tr');
    const first = await move(edit.api, ex.id, 1, 'running', key);
    const replay = await move(edit.api, ex.id, 1, 'running', key);
    expect([first.status, replay.status]).toEqual([200, 200]);
    expect(replay.body).toEqual(first.body);
    const reuse = await move(edit.api, ex.id, 1, 'waiting', key);
    expect([reuse.status, reuse.body.code]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
    expect((await get(ex.id)).state_version).toBe(2);

    const results = await Promise.all(['waiting', 'completed', 'failed', 'cancelled', 'waiting'].map((to) => move(edit.api, ex.id, 2, to)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.code === 'STALE_STATE_VERSION')).toBe(true);
    const after = await get(ex.id);
    expect(after.state_version).toBe(3);
    expect(after.transitions).toHaveLength(3);
  });

  it('the database refuses what the code refuses: illegal moves, version jumps, needs_human without an open request, a second transition per version', async () => {
    const { ex } = await create();
    const sql = (text: string) => t.db.query(text, [org.id, ex.id]);
    await expect(sql(`UPDATE agent_executions SET state = 'completed', state_version = 2, ended_at = now() WHERE org_id = $1 AND id = $2`)).rejects.toThrow(
      /not allowed/,
    );
    await expect(sql(`UPDATE agent_executions SET state = 'running', state_version = 5 WHERE org_id = $1 AND id = $2`)).rejects.toThrow(/not allowed/);
    await expect(sql(`UPDATE agent_executions SET state = 'needs_human', state_version = 2 WHERE org_id = $1 AND id = $2`)).rejects.toThrow(/open attention/);
    await expect(sql(`UPDATE agent_executions SET state_version = 7 WHERE org_id = $1 AND id = $2`)).rejects.toThrow(/only with the state/);
    await expect(
      t.db.query(
        `INSERT INTO agent_execution_transitions (org_id, id, execution_id, from_state, to_state, state_version, via) VALUES ($1, gen_random_uuid(), $2, NULL, 'assigned', 1, 'create')`,
        [org.id, ex.id],
      ),
    ).rejects.toThrow(/duplicate key/);
    await expect(
      t.db.query(`INSERT INTO agent_executions (org_id, id, issue_id, agent_member_id, state) VALUES ($1, gen_random_uuid(), $2, $3, 'running')`, [
        org.id,
        ex.issue_id,
        edit.memberId,
      ]),
    ).rejects.toThrow(/starts assigned/);
  });

  it('waiting → running is for the live requesting agent: a human with edit access gets 403; humans may do other moves', async () => {
    const { ex } = await create();
    await move(org.owner.http as never, ex.id, 1, 'waiting').expect(200);
    const r = await move(org.owner.http as never, ex.id, 2, 'running');
    expect([r.status, r.body.code]).toEqual([403, 'EXECUTION_AGENT_REQUIRED']);
    // another agent with edit access is not the execution's agent
    const peer = await agentOn(org, proj.id, 'edit');
    const p = await move(peer.api, ex.id, 2, 'running');
    expect([p.status, p.body.code]).toEqual([403, 'EXECUTION_AGENT_REQUIRED']);
    await move(edit.api, ex.id, 2, 'running').expect(200);
  });

  it('attention lifecycle: raise → needs_human; resolve by a human → waiting and resolved_unread; acknowledge clears it; keys and versions fenced', async () => {
    const { ex } = await create();
    await move(edit.api, ex.id, 1, 'running').expect(200);
    const raised = await raise(ex.id);
    expect(raised.status).toBe(201);
    const it0 = raised.body.attention_item;
    expect(it0).toMatchObject({ state: 'open', version: 1, title: 'Which database?', options: ['Postgres', 'SQLite'], execution_id: ex.id, unread: false });
    expect(raised.body.execution).toEqual({ id: ex.id, state: 'needs_human', state_version: 3 });

    // the generic contract cannot leave needs_human
    for (const to of ['running', 'waiting', 'completed']) {
      const r = await move(edit.api, ex.id, 3, to);
      expect([to, r.status, r.body.code]).toEqual([to, 409, 'ATTENTION_CONTRACT_REQUIRED']);
    }
    const second = await raise(ex.id);
    expect([second.status, second.body.code]).toEqual([409, 'ATTENTION_ALREADY_OPEN']);

    const listed = await edit.api.get(`${base()}/${ex.id}/attention`).expect(200);
    expect(listed.body.attention_items.map((x: { id: string }) => x.id)).toEqual([it0.id]);
    await edit.api.get(item(it0.id)).expect(200);

    const reader = t.app.get(ExecutionAttentionReader);
    const actor = actorForMember(org.id, { id: edit.memberId, type: 'agent', role: 'guest', display_name: 'a', agent_scope: 'project', owner_member_id: null });
    expect((await reader.forAgent(actor)).open.map((x) => x.id)).toContain(it0.id);

    // resolve: agents 403, view-only humans 403, stale 409, blank 400
    const byAgent = await edit.api.post(item(it0.id, 'resolve')).send({ answer: 'Postgres', expected_version: 1 });
    expect([byAgent.status, byAgent.body.code]).toEqual([403, 'ATTENTION_HUMAN_REQUIRED']);
    const byViewer = await member.http.post(item(it0.id, 'resolve')).send({ answer: 'Postgres', expected_version: 1 });
    expect(byViewer.status).toBe(403);
    const stale = await org.owner.http.post(item(it0.id, 'resolve')).send({ answer: 'Postgres', expected_version: 7 });
    expect([stale.status, stale.body.code]).toEqual([409, 'STALE_ATTENTION_VERSION']);
    expect((await org.owner.http.post(item(it0.id, 'resolve')).send({ answer: '   ', expected_version: 1 })).status).toBe(400);
    const rkey = uniq('res');
    const resolved = await org.owner.http.post(item(it0.id, 'resolve')).send({ answer: 'Use Postgres', expected_version: 1, idempotency_key: rkey });
    expect(resolved.status).toBe(200);
    expect(resolved.body.attention_item).toMatchObject({ state: 'resolved', version: 2, answer: 'Use Postgres', unread: true });
    expect(resolved.body.execution).toEqual({ id: ex.id, state: 'waiting', state_version: 4 });
    const replay = await org.owner.http.post(item(it0.id, 'resolve')).send({ answer: 'Use Postgres', expected_version: 1, idempotency_key: rkey });
    expect([replay.status, replay.body]).toEqual([200, resolved.body]);
    const again = await org.owner.http.post(item(it0.id, 'resolve')).send({ answer: 'Use SQLite', expected_version: 2 });
    expect([again.status, again.body.code]).toEqual([409, 'ATTENTION_NOT_OPEN']);

    const ea = await reader.forAgent(actor);
    expect(ea.resolved_unread.map((x) => x.id)).toContain(it0.id);
    expect(ea.open.map((x) => x.id)).not.toContain(it0.id);
    expect(ea.resolved_unread.find((x) => x.id === it0.id)).toMatchObject({
      answer: 'Use Postgres',
      ack_endpoint: `/api/orgs/${org.id}/attention-items/${it0.id}/acknowledge`,
    });

    // acknowledge: requester only, version-fenced, idempotent per key
    const notMine = await view.api.post(item(it0.id, 'acknowledge')).send({ expected_version: 2 });
    expect([notMine.status, notMine.body.code]).toEqual([403, 'ATTENTION_REQUESTER_REQUIRED']);
    const ackStale = await edit.api.post(item(it0.id, 'acknowledge')).send({ expected_version: 1 });
    expect([ackStale.status, ackStale.body.code]).toEqual([409, 'STALE_ATTENTION_VERSION']);
    const akey = uniq('ack');
    const ack = await edit.api.post(item(it0.id, 'acknowledge')).send({ expected_version: 2, idempotency_key: akey });
    expect(ack.status).toBe(200);
    expect(ack.body.attention_item).toMatchObject({ version: 3, unread: false });
    expect(ack.body.execution.state).toBe('waiting'); // never resumes
    expect((await edit.api.post(item(it0.id, 'acknowledge')).send({ expected_version: 2, idempotency_key: akey })).body).toEqual(ack.body);
    const akReuse = await edit.api.post(item(it0.id, 'acknowledge')).send({ expected_version: 3, idempotency_key: akey });
    expect([akReuse.status, akReuse.body.code]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
    expect((await reader.forAgent(actor)).resolved_unread.map((x) => x.id)).not.toContain(it0.id);
  });

  it('the fenced waiting → running move consumes the resolved-answer receipt; requester cancel returns to waiting; cancel closes open requests', async () => {
    const reader = t.app.get(ExecutionAttentionReader);
    const actor = actorForMember(org.id, { id: edit.memberId, type: 'agent', role: 'guest', display_name: 'a', agent_scope: 'project', owner_member_id: null });
    const { ex } = await create();
    const a = (await raise(ex.id).then((r) => r.body)).attention_item;
    await org.owner.http.post(item(a.id, 'resolve')).send({ answer: 'Go', expected_version: 1 }).expect(200);
    expect((await reader.forAgent(actor)).resolved_unread.map((x) => x.id)).toContain(a.id);
    await move(edit.api, ex.id, 3, 'running').expect(200);
    expect((await reader.forAgent(actor)).resolved_unread.map((x) => x.id)).not.toContain(a.id);
    expect((await edit.api.get(item(a.id)).expect(200)).body.attention_item.unread).toBe(false);

    const b = (await raise(ex.id).then((r) => r.body)).attention_item;
    const notMine = await org.owner.http.post(item(b.id, 'cancel')).send({});
    expect([notMine.status, notMine.body.code]).toEqual([403, 'ATTENTION_REQUESTER_REQUIRED']);
    const c = await edit.api.post(item(b.id, 'cancel')).send({ expected_version: 1 });
    expect(c.status).toBe(200);
    expect(c.body.attention_item.state).toBe('cancelled');
    expect(c.body.execution.state).toBe('waiting');
    const c2 = await edit.api.post(item(b.id, 'cancel')).send({});
    expect([c2.status, c2.body.code]).toEqual([409, 'ATTENTION_NOT_OPEN']);
    const ackOpen = await edit.api.post(item(b.id, 'acknowledge')).send({ expected_version: 2 });
    expect([ackOpen.status, ackOpen.body.code]).toEqual([409, 'ATTENTION_NOT_RESOLVED']);

    const d = (await raise(ex.id).then((r) => r.body)).attention_item;
    const cancelled = await edit.api.post(`${base()}/${ex.id}/cancel`).send({ reason: 'No longer needed' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.execution).toMatchObject({ state: 'cancelled', reason: 'No longer needed' });
    expect((await edit.api.get(item(d.id)).expect(200)).body.attention_item.state).toBe('cancelled');
    const late = await raise(ex.id);
    expect([late.status, late.body.code]).toEqual([409, 'EXECUTION_TERMINAL']);
  });

  it('resolution notifies the requester (in-app attention.resolved, resume_agent_thread) and reaches webhooks subscribed to attention.resolved, without the answer', async () => {
    const hook = await insertWebhookRow(t, org.id, { events: ['attention.resolved'] });
    const issueHook = await insertWebhookRow(t, org.id, { events: ['issue.updated'] });
    const { ex } = await create();
    const a = (await raise(ex.id).then((r) => r.body)).attention_item;
    await org.owner.http.post(item(a.id, 'resolve')).send({ answer: 'Secret plan: use Postgres', expected_version: 1 }).expect(200);
    const notes = await t.db.query(
      `SELECT event_type, action_kind, recipient_member_id, issue_id, metadata FROM notifications WHERE org_id = $1 AND event_type = 'attention.resolved' AND metadata->>'attention_item_id' = $2`,
      [org.id, a.id],
    );
    expect(notes).toEqual([
      {
        event_type: 'attention.resolved',
        action_kind: 'resume_agent_thread',
        recipient_member_id: edit.memberId,
        issue_id: ex.issue_id,
        metadata: { execution_id: ex.id, attention_item_id: a.id, attention_version: 2 },
      },
    ]);
    const listed = await edit.api.get(`/api/orgs/${org.id}/notifications`).expect(200);
    expect(JSON.stringify(listed.body)).toContain('attention.resolved');
    const deliveries = await t.db.query(
      `SELECT webhook_id, event, body FROM webhook_deliveries WHERE org_id = $1 AND event = 'attention.resolved' AND body LIKE $2`,
      [org.id, `%${a.id}%`],
    );
    expect(deliveries.map((d: { webhook_id: string }) => d.webhook_id)).toEqual([hook]);
    const payload = JSON.parse(deliveries[0].body);
    expect(payload).toMatchObject({
      event: 'attention.resolved',
      schema_version: 2,
      attention_item: { id: a.id, state: 'resolved', version: 2, requester_member_id: edit.memberId },
      execution: { id: ex.id, state: 'waiting', state_version: 3 },
      issue: { id: ex.issue_id },
    });
    expect(deliveries[0].body).not.toMatch(/Secret plan|Postgres or SQLite|question|answer/);
    expect(issueHook).not.toBe(hook);
    // a cancelled request notifies nobody
    const b = (await raise(ex.id).then((r) => r.body)).attention_item;
    await edit.api.post(item(b.id, 'cancel')).send({}).expect(200);
    const none = await t.db.query(`SELECT count(*)::int AS n FROM notifications WHERE org_id = $1 AND metadata->>'attention_item_id' = $2`, [org.id, b.id]);
    expect(none[0].n).toBe(0);
  });

  it('cancel: every non-terminal state, idempotent with a key, stale fence 409', async () => {
    for (const path of [[], ['running'], ['waiting']]) {
      const { ex } = await create();
      let v = 1;
      for (const to of path) await move(edit.api, ex.id, v++, to).expect(200);
      const key = uniq('c');
      const r = await edit.api.post(`${base()}/${ex.id}/cancel`).send({ idempotency_key: key });
      expect([r.status, r.body.execution.state]).toEqual([200, 'cancelled']);
      expect((await edit.api.post(`${base()}/${ex.id}/cancel`).send({ idempotency_key: key })).body).toEqual(r.body);
    }
    const { ex } = await create();
    const stale = await edit.api.post(`${base()}/${ex.id}/cancel`).send({ expected_state_version: 4 });
    expect([stale.status, stale.body.code]).toEqual([409, 'STALE_STATE_VERSION']);
    const byView = await view.api.post(`${base()}/${ex.id}/cancel`).send({});
    expect(byView.status).toBe(403);
    expect((await get(ex.id)).state).toBe('assigned');
  });

  it('evidence: references with link_type and target_id in the detail; idempotent; unreadable issue target 404; bad type 400', async () => {
    const { ex } = await create();
    const target = await issue();
    const key = uniq('ev');
    const r = await edit.api.post(`${base()}/${ex.id}/evidence`).send({ link_type: 'issue', target_id: target.id, idempotency_key: key });
    expect(r.status).toBe(201);
    expect(r.body.evidence).toMatchObject({ link_type: 'issue', target_id: target.id });
    expect((await edit.api.post(`${base()}/${ex.id}/evidence`).send({ link_type: 'issue', target_id: target.id, idempotency_key: key })).body).toEqual(r.body);
    const pr = randomUUID();
    await edit.api
      .post(`${base()}/${ex.id}/evidence`)
      .send({ link_type: 'pr_link', target_id: pr, idempotency_key: uniq('ev') })
      .expect(201);
    const detail = await get(ex.id);
    expect(detail.evidence.map((e: { link_type: string; target_id: string }) => [e.link_type, e.target_id])).toEqual([
      ['issue', target.id],
      ['pr_link', pr],
    ]);
    const hiddenIssue = await insertIssue(t, org.id, hidden.id, {});
    expect((await view.api.post(`${base()}/${ex.id}/evidence`).send({ link_type: 'issue', target_id: target.id, idempotency_key: uniq('e') })).status).toBe(
      403,
    );
    const guestAgent = await agentOn(org, proj.id, 'edit');
    expect(
      (await guestAgent.api.post(`${base()}/${ex.id}/evidence`).send({ link_type: 'issue', target_id: hiddenIssue.id, idempotency_key: uniq('e') })).status,
    ).toBe(404);
    expect((await edit.api.post(`${base()}/${ex.id}/evidence`).send({ link_type: 'log', target_id: pr, idempotency_key: uniq('e') })).status).toBe(400);
    expect((await edit.api.post(`${base()}/${ex.id}/evidence`).send({ link_type: 'issue', target_id: 'x', idempotency_key: uniq('e') })).status).toBe(400);
  });

  it('access: read-only 403 for writes, unreadable 404 (concealed), foreign organization 404, anonymous 401; creation project grants nothing', async () => {
    const { ex } = await create();
    await view.api.get(`${base()}/${ex.id}`).expect(200);
    const tr = await move(view.api, ex.id, 1, 'running');
    expect(tr.status).toBe(403);
    const i = await issue();
    expect((await view.api.post(base()).send({ issue_id: i.id, agent_member_id: view.memberId, idempotency_key: uniq('v') })).status).toBe(403);
    expect((await view.api.post(`${base()}/${ex.id}/attention`).send({ idempotency_key: uniq('a'), title: 't', question: 'q' })).status).toBe(403);

    for (const who of [outsider, foreign]) {
      expect((await who.api.get(`${base()}/${ex.id}`)).status).toBe(404);
      expect((await move(who.api, ex.id, 1, 'running')).status).toBe(404);
      expect((await who.api.post(`${base()}/${ex.id}/cancel`).send({})).status).toBe(404);
      expect((await who.api.get(`${base()}/${ex.id}/attention`)).status).toBe(404);
    }
    expect((await foreign.api.get(`/api/orgs/${other.id}/agent-executions/${ex.id}`)).status).toBe(404);
    const list = await outsider.api.get(`${base()}?limit=100`).expect(200);
    expect(list.body.executions.map((x: { id: string }) => x.id)).not.toContain(ex.id);
    expect((await t.http().get(base())).status).toBe(401);

    // the issue moves to a project the agent cannot read: the execution is concealed now
    const moved = await create();
    await t.db.query('UPDATE issues SET project_id = $3 WHERE org_id = $1 AND id = $2', [org.id, moved.body.issue_id, hidden.id]);
    expect((await edit.api.get(`${base()}/${moved.ex.id}`)).status).toBe(404);
    const asOwner = await org.owner.http.get(`${base()}/${moved.ex.id}`).expect(200);
    expect([asOwner.body.execution.current_project_id, asOwner.body.execution.project_id_at_creation]).toEqual([hidden.id, proj.id]);
  });

  it('list: filters issue_id, state, agent_member_id; limit/offset; envelope shape', async () => {
    const { ex, body } = await create();
    await move(edit.api, ex.id, 1, 'running').expect(200);
    const byIssue = await edit.api.get(`${base()}?issue_id=${body.issue_id}`).expect(200);
    expect(byIssue.body.executions.map((x: { id: string }) => x.id)).toEqual([ex.id]);
    expect(byIssue.body).toMatchObject({ total: 1, limit: 25, offset: 0 });
    const byState = await edit.api.get(`${base()}?state=running&agent_member_id=${edit.memberId}&limit=100`).expect(200);
    expect(byState.body.executions.every((x: { state: string; agent_member_id: string }) => x.state === 'running' && x.agent_member_id === edit.memberId)).toBe(
      true,
    );
    expect(byState.body.executions.map((x: { id: string }) => x.id)).toContain(ex.id);
    const env = await edit.api.get(`${base()}?shape=envelope&limit=1`).expect(200);
    expect(env.body).toMatchObject({ resource: 'executions', limit: 1, offset: 0 });
    expect(env.body.items).toHaveLength(1);
  });
});
