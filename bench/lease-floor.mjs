// The floor of the runner_leases scenario (BENCH_RUNNER_AGAINST=floor; bench/runners.mjs forks it):
// plain node:http plus a pg Pool of the same size, answering the scenario's four lease writes on the
// same database with the statements the service sends for them (the API key read, the presence
// UPDATE, the losing claim's one read, the winning claim's transaction under the advisory lock, the
// fenced renewal, the completion's transaction moving the execution). No framework, no validation,
// no error shape, no events: what the writes cost on this machine without the service around them.
// Not a second implementation: it answers only what the scenario sends. Env DATABASE_URL,
// DATABASE_POOL_SIZE; listens on a port of the kernel's choosing and sends `{ port }` over IPC.
import '../dist/src/process/heap-tuning.js'; // the service's V8 heap settings (bench/run.mjs)
import { createServer } from 'node:http';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { inTx } from './write-scenarios.mjs';
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE ?? 20) });
// the bench drops the database under idle connections when it ends
pool.on('error', () => {});
const homes = new Map();
const q = (name, text, values, c = pool) => c.query({ name, text, values });
async function auth(h) {
  const key = (h ?? '').replace(/^Bearer /, '');
  const hash = createHash('sha256').update(key).digest();
  const k = hash.toString('base64');
  let home = homes.get(k);
  if (!home) {
    home = (await q('home', 'SELECT org_id, api_key_id FROM api_key_lookup WHERE key_hash = $1', [hash])).rows[0];
    if (!home) return null;
    homes.set(k, home);
  }
  return (
    (
      await q(
        'auth',
        `SELECT k.org_id, k.member_id, m.role FROM api_keys k JOIN members m ON m.org_id = k.org_id AND m.id = k.member_id
     WHERE k.org_id = $1 AND k.id = $2 AND k.key_hash = $3 AND k.revoked_at IS NULL AND m.removed_at IS NULL AND m.type = 'agent'`,
        [home.org_id, home.api_key_id, hash],
      )
    ).rows[0] ?? null
  );
}
const send = (res, s, b) => {
  const t = JSON.stringify(b);
  res.writeHead(s, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(t) });
  res.end(t);
};
async function body(req) {
  const cs = [];
  for await (const c of req) cs.push(c);
  return cs.length ? JSON.parse(Buffer.concat(cs).toString()) : {};
}
const th = (t) => createHash('sha256').update(t).digest('hex');
async function activity(c, org, issue, member, action) {
  await q(
    'act',
    `INSERT INTO activity_events (org_id, id, issue_id, project_id, actor_member_id, action, metadata, created_at)
    SELECT $1, $2, $3, i.project_id, $4, $5, '{}'::jsonb, now() FROM issues i WHERE i.org_id = $1 AND i.id = $3`,
    [org, randomUUID(), issue, member, action],
    c,
  );
}
const server = createServer(async (req, res) => {
  try {
    const b = await body(req);
    const p = await auth(req.headers.authorization);
    if (!p) return send(res, 401, { code: 'UNAUTHORIZED' });
    const parts = req.url.split('/');
    const org = parts[3];
    if (req.method === 'PUT') {
      const r = await q(
        'presence',
        `UPDATE runner_installations SET host_id = $4, platform = $5, arch = $6, capabilities = $7, client_version = $8, last_seen_at = now(), disconnected_at = NULL, updated_at = now()
        WHERE org_id = $1 AND agent_member_id = $2 AND replaced_at IS NULL AND instance_id = $3 RETURNING id, intake_state, last_seen_at`,
        [org, p.member_id, b.runner.instanceId, null, b.runner.platform, b.runner.arch, b.runner.capabilities, b.runner.clientVersion],
      );
      return send(res, r.rowCount ? 200 : 409, { runner: r.rows[0] });
    }
    if (req.method === 'POST') {
      const v = (
        await q(
          'view',
          `SELECT (SELECT id FROM runner_installations r WHERE r.org_id = $1 AND r.agent_member_id = $3 AND r.replaced_at IS NULL) AS runner,
          EXISTS (SELECT 1 FROM issues i WHERE i.org_id = $1 AND i.id = $2 AND (i.assignee_id = $3 OR EXISTS (SELECT 1 FROM issue_assignees a WHERE a.org_id = i.org_id AND a.issue_id = i.id AND a.member_id = $3))) AS assignee,
          EXISTS (SELECT 1 FROM runner_leases l WHERE l.org_id = $1 AND l.issue_id = $2 AND l.state IN ('active', 'uncertain') AND l.expires_at > now()) AS held`,
          [org, b.issueId, p.member_id],
        )
      ).rows[0];
      if (!v.assignee) return send(res, 409, { code: 'NOT_ASSIGNED' });
      if (v.held) return send(res, 409, { code: 'RUNNER_LEASE_HELD' });
      const out = await inTx(pool, async (c) => {
        await q('lock', 'SELECT pg_advisory_xact_lock(hashtext($1))', [`runner_leases:${org}:${b.issueId}`], c);
        const st = (
          await q(
            'state',
            `WITH x AS (UPDATE runner_leases SET state = 'expired', ended_at = now() WHERE org_id = $1 AND issue_id = $2 AND state = 'active' AND expires_at <= now() RETURNING 1)
          SELECT EXISTS (SELECT 1 FROM runner_leases l WHERE l.org_id = $1 AND l.issue_id = $2 AND l.state IN ('active', 'uncertain') AND l.expires_at > now()) AS held`,
            [org, b.issueId],
            c,
          )
        ).rows[0];
        if (st.held) return null;
        const exec = randomUUID();
        await q(
          'exec',
          `WITH e AS (INSERT INTO agent_executions (org_id, id, issue_id, agent_member_id, created_by_member_id, project_id_at_creation, harness_kind, external_run_id)
            SELECT $1, $2, $3, $4, $4, i.project_id, 'service_local_runner', $5 FROM issues i WHERE i.org_id = $1 AND i.id = $3 RETURNING org_id, id, state, state_version)
          INSERT INTO agent_execution_transitions (org_id, id, execution_id, from_state, to_state, state_version, actor_member_id, via) SELECT e.org_id, $6, e.id, NULL, e.state, e.state_version, $4, 'create' FROM e`,
          [org, exec, b.issueId, p.member_id, randomUUID(), randomUUID()],
          c,
        );
        const token = randomBytes(32).toString('base64url');
        const l = (
          await q(
            'lease',
            `INSERT INTO runner_leases (org_id, id, issue_id, agent_member_id, runner_id, execution_id, claim_generation, idempotency_key, request_hash, token_hash, claim_kind, expires_at)
           SELECT $1, $2, $3, $4, $5, $6, coalesce(max(g.claim_generation), 0) + 1, $7, $8, $9, 'ordinary', now() + make_interval(secs => 300) FROM runner_leases g WHERE g.org_id = $1 AND g.issue_id = $3
           RETURNING id, claim_generation, sequence`,
            [org, randomUUID(), b.issueId, p.member_id, v.runner, exec, b.idempotencyKey, th('r' + b.idempotencyKey), th(token)],
            c,
          )
        ).rows[0];
        await activity(c, org, b.issueId, p.member_id, 'runner_lease.claimed');
        return { lease: l, token };
      });
      return out ? send(res, 201, out) : send(res, 409, { code: 'RUNNER_LEASE_HELD' });
    }
    if (req.method === 'PATCH') {
      const id = parts[5];
      if (b.transition === 'renew') {
        const r = await q(
          'renew',
          `WITH u AS (
           UPDATE runner_leases l SET sequence = l.sequence + 1, expires_at = now() + make_interval(secs => 300), updated_at = now()
             FROM runner_installations r
            WHERE l.org_id = $1 AND l.id = $2 AND l.agent_member_id = $3 AND l.claim_generation = $4 AND l.token_hash = $5 AND l.sequence = $6 - 1
              AND l.state = 'active' AND l.expires_at > now()
              AND r.org_id = l.org_id AND r.id = l.runner_id AND r.replaced_at IS NULL AND r.disconnected_at IS NULL
              AND r.last_seen_at > now() - make_interval(secs => 600)
              AND NOT EXISTS (SELECT 1 FROM runner_lease_mutations mu WHERE mu.org_id = $1 AND mu.lease_id = $2 AND mu.mutation_id = $7)
           RETURNING l.id, l.issue_id, l.agent_member_id, l.runner_id, l.execution_id, l.claim_kind, l.state, l.phase, l.claim_generation, l.sequence, l.expires_at),
         rec AS (INSERT INTO runner_lease_mutations (org_id, lease_id, mutation_id, sequence, transition, request_hash, response)
           SELECT $1, u.id, $7, u.sequence, 'renew', $8, jsonb_build_object('row', to_jsonb(u)) FROM u)
         SELECT u.* FROM u`,
          [org, id, p.member_id, b.claimGeneration, th(b.token), b.sequence, b.mutationId, th(b.mutationId)],
        );
        return send(res, r.rowCount ? 200 : 409, { lease: r.rows[0] });
      }
      const ok = await inTx(pool, async (c) => {
        const l = (
          await q(
            'lockown',
            `SELECT l.id, l.issue_id, l.execution_id, l.sequence, l.state FROM runner_leases l WHERE l.org_id = $1 AND l.id = $2 AND l.agent_member_id = $3 FOR UPDATE`,
            [org, id, p.member_id],
            c,
          )
        ).rows[0];
        if (!l || l.state !== 'active' || l.sequence !== b.sequence - 1) return false;
        await q(
          'apply',
          `WITH u AS (UPDATE runner_leases SET sequence = sequence + 1, state = 'completed', ended_at = now(), updated_at = now() WHERE org_id = $1 AND id = $2 RETURNING id, sequence, state)
          INSERT INTO runner_lease_mutations (org_id, lease_id, mutation_id, sequence, transition, request_hash, response) SELECT $1, u.id, $3, u.sequence, 'completed', $4, jsonb_build_object('row', to_jsonb(u)) FROM u`,
          [org, id, b.mutationId, th(b.mutationId)],
          c,
        );
        const e = (await q('elock', `SELECT state, state_version FROM agent_executions WHERE org_id = $1 AND id = $2 FOR UPDATE`, [org, l.execution_id], c))
          .rows[0];
        let s = e.state,
          v = e.state_version;
        for (const to of s === 'assigned' ? ['running', 'completed'] : ['completed']) {
          await q(
            'emove',
            `WITH u AS (UPDATE agent_executions SET state = $5, state_version = state_version + 1, updated_at = now(), ended_at = CASE WHEN $5 = 'completed' THEN now() END
              WHERE org_id = $1 AND id = $2 AND state = $3 AND state_version = $4 RETURNING org_id, id, state, state_version)
            INSERT INTO agent_execution_transitions (org_id, id, execution_id, from_state, to_state, state_version, actor_member_id, via) SELECT u.org_id, $6, u.id, $3, u.state, u.state_version, $7, 'runner' FROM u`,
            [org, l.execution_id, s, v, to, randomUUID(), p.member_id],
            c,
          );
          s = to;
          v++;
        }
        await activity(c, org, l.issue_id, p.member_id, 'agent_execution.state_changed');
        return true;
      });
      return send(res, ok ? 200 : 409, { ok });
    }
    send(res, 404, {});
  } catch (e) {
    console.error(e.message);
    send(res, 500, { error: String(e.message) });
  }
});
server.keepAliveTimeout = 72_000;
// a port of the kernel's choosing, held from the start; the parent learns it over IPC
server.listen(0, '127.0.0.1', () => process.send?.({ port: server.address().port }));
process.on('disconnect', () => process.exit(0));
