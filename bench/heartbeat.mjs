// The agent heartbeat phase of `npm run bench` (issue 14, "Speed and proof"): BENCH_ONLY=heartbeat.
//
// Its own organization in the bench database, seeded as the issue describes: BENCH_HB_ISSUES
// issues (10,000) over BENCH_HB_PROJECTS projects (50; seed-issues.mjs, with a 500-issue
// dependency DAG in the first project), 200 KPIs, 100 initiatives and 40 goals (seed-strategy.mjs,
// with 3,000 linked issues), and BENCH_HB_AGENTS (20) project-scoped agents in four access groups:
// group g reads 15 of the 50 projects (projects 12g+1 .. 12g+15, so the groups overlap), and every
// agent has open work assigned in its projects (some of it started and unchanged for 10 days)
// and 30 unread notifications. A writer agent (role admin) updates issues.
//
// Measured: every bench agent asks for its heartbeat in a loop (one request at a time each, so
// BENCH_HB_AGENTS requests in flight), for BENCH_DURATION seconds after BENCH_WARMUP, WHILE the
// writer PATCHes BENCH_HB_WRITES issues per second (4: a priority or status change of an open
// issue in the groups' projects, some assigned to the bench agents, which also notifies them), so
// kept results are invalidated as in real use. Four runs: compact and `view=full`, each against
// the service as deployed (kept read results) and against a second API process with
// READ_CACHE=off (every heartbeat computed); BENCH_HB_RUNS=heartbeat-compact,... makes only those. Targets (kept results): compact p99 ≤ 50 ms, full
// p99 ≤ 150 ms. The 1-minute load average is reported beside each run. BENCH_HB_STATE=<file> writes
// the organization, keys and write targets there (probes against a database kept with BENCH_KEEP_DB=1).
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { seedIssues } from './seed-issues.mjs';
import { seedStrategy } from './seed-strategy.mjs';

const num = (v, dflt) => (v === undefined || v === '' ? dflt : Number(v));
export const HEARTBEAT_TARGETS = { compact: 50, full: 150 };

/** GET with a keep-alive agent; resolves { status, ms } (the body is read and dropped). */
function get(agent, base, path, headers) {
  return new Promise((resolve) => {
    const t0 = process.hrtime.bigint();
    const req = request(`${base}${path}`, { agent, headers }, (res) => {
      res.on('data', () => {});
      res.on('end', () => resolve({ status: res.statusCode, ms: Number(process.hrtime.bigint() - t0) / 1e6 }));
    });
    req.on('error', () => resolve({ status: 0, ms: Number(process.hrtime.bigint() - t0) / 1e6 }));
    req.end();
  });
}

const pct = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : 0);
const round = (x) => Math.round(x * 10) / 10;

export async function heartbeatAgents({
  env,
  root,
  spawnNode,
  waitForHttp,
  freePort,
  call,
  signup,
  databaseUrl,
  redisUrl,
  queuePrefix,
  dataDir,
  log,
  apiNodeArgs = [],
}) {
  const nIssues = num(env.BENCH_HB_ISSUES, 10_000);
  const nProjects = num(env.BENCH_HB_PROJECTS, 50);
  const nAgents = num(env.BENCH_HB_AGENTS, 20);
  const writesPerSecond = num(env.BENCH_HB_WRITES, 4);
  const duration = num(env.BENCH_DURATION, 10);
  const warmup = num(env.BENCH_WARMUP, 2);

  const secret = randomBytes(32).toString('hex');
  const common = {
    NODE_ENV: 'production',
    SESSION_SECRET: secret,
    SERVICE_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: env.BENCH_POOL_SIZE || '20',
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: `${queuePrefix}-hb`,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    MIGRATIONS_RUN: '0',
    AUTH_RATE_LIMIT_PER_MINUTE: '100000',
    INVITATION_RATE_LIMIT_PER_HOUR: '100000',
  };
  const apis = {};
  for (const [mode, extra] of [
    ['cached', {}],
    ['uncached', { READ_CACHE: 'off' }],
  ]) {
    const port = await freePort();
    const entry = spawnNode(
      `heartbeat API (${mode})`,
      join(root, 'dist/src/main.js'),
      { ...common, ...extra, PORT: String(port), HOST: '127.0.0.1' },
      apiNodeArgs,
    );
    apis[mode] = { base: `http://127.0.0.1:${port}`, entry };
  }
  for (const a of Object.values(apis)) await waitForHttp(a.base, '/health', a.entry, 60_000);
  const base = apis.cached.base;

  // ---- seed: organization, projects and agents through the API; the bulk in SQL
  const owner = await signup(base, 'hbowner');
  const orgId = (await call(base, 'POST', '/api/orgs', { cookie: owner.cookie, body: { name: `Heartbeat ${randomBytes(3).toString('hex')}` }, expect: 201 }))
    .body.organization.id;
  const projectIds = [];
  for (let i = 0; i < nProjects; i++) {
    const p = await call(base, 'POST', `/api/orgs/${orgId}/projects`, {
      cookie: owner.cookie,
      body: { name: `HB Project ${String(i + 1).padStart(2, '0')}` },
      expect: 201,
    });
    projectIds.push(p.body.project.id);
  }
  const groupProjects = (g) => projectIds.slice((12 * g) % nProjects, ((12 * g) % nProjects) + 15);
  const agents = [];
  for (let i = 0; i < nAgents; i++) {
    const group = i % 4;
    const r = await call(base, 'POST', `/api/orgs/${orgId}/agents`, {
      cookie: owner.cookie,
      body: { name: `HB agent ${i + 1}`, projectIds: groupProjects(group) },
      expect: 201,
    });
    agents.push({ key: r.body.apiKey, memberId: r.body.agent.member_id ?? r.body.agent.id, group });
  }
  const writer = (await call(base, 'POST', `/api/orgs/${orgId}/agents`, { cookie: owner.cookie, body: { name: 'HB writer', role: 'admin' }, expect: 201 }))
    .body;
  const t0 = Date.now();
  const seeded = await seedIssues(databaseUrl, { orgId, projectIds, issues: nIssues, graphIssues: 500 });
  const strategy = (await seedStrategy(databaseUrl, { orgId, projectIds, goals: 40, kpis: 200, snapshots: 12, initiatives: 100, linkedIssues: 3000 })).strategy;
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  let writeTargets;
  try {
    const ownerMember = (await c.query(`SELECT id FROM members WHERE org_id = $1 AND role = 'owner' LIMIT 1`, [orgId])).rows[0].id;
    await c.query('BEGIN');
    for (const a of agents) {
      const projects = groupProjects(a.group);
      // 12 open issues assigned to the agent in its projects; every third started and unchanged for 10 days
      await c.query(
        `WITH pick AS (SELECT id, row_number() OVER (ORDER BY md5(id::text || $3::text)) AS k FROM issues
                        WHERE org_id = $1 AND project_id = ANY($2::uuid[]) AND status IN ('todo', 'in_progress', 'backlog') AND archived_at IS NULL
                          AND assignee_id IS NULL)
         UPDATE issues i SET assignee_id = $3::uuid, status = CASE WHEN pick.k % 3 = 0 THEN 'in_progress' ELSE i.status END,
                updated_at = CASE WHEN pick.k % 3 = 0 THEN now() - interval '10 days' ELSE i.updated_at END
           FROM pick WHERE i.org_id = $1 AND i.id = pick.id AND pick.k <= 12`,
        [orgId, projects, a.memberId],
      );
      await c.query(
        `INSERT INTO issue_assignees (org_id, issue_id, member_id, position) SELECT org_id, id, assignee_id, 0 FROM issues WHERE org_id = $1 AND assignee_id = $2::uuid
         ON CONFLICT DO NOTHING`,
        [orgId, a.memberId],
      );
      // 30 unread notifications about issues of its projects
      await c.query(
        `INSERT INTO notifications (org_id, recipient_member_id, event_type, severity, action_kind, issue_id, project_id, actor_member_id, actor_type, title, created_at)
         SELECT $1, $3::uuid, (ARRAY['issue.assigned', 'comment.added', 'mention.created', 'issue.status_changed'])[(k % 4) + 1], 'info', 'review_issue',
                i.id, i.project_id, $4::uuid, 'human', 'Heads up on ' || i.title, now() - make_interval(mins => k::int)
           FROM (SELECT id, project_id, title, row_number() OVER (ORDER BY md5(id::text || $3::text)) AS k FROM issues
                  WHERE org_id = $1 AND project_id = ANY($2::uuid[]) AND archived_at IS NULL) i
          WHERE k <= 30`,
        [orgId, projects, a.memberId, ownerMember],
      );
    }
    await c.query('COMMIT');
    await c.query('VACUUM ANALYZE issues');
    await c.query('VACUUM ANALYZE notifications');
    // what the writer updates: open issues of the groups' projects, a third of them the agents' own
    writeTargets = (
      await c.query(
        `(SELECT id FROM issues WHERE org_id = $1 AND assignee_id = ANY($2::uuid[]) AND archived_at IS NULL ORDER BY id LIMIT 80)
         UNION ALL
         (SELECT id FROM issues WHERE org_id = $1 AND project_id = ANY($3::uuid[]) AND status IN ('todo', 'in_progress') AND archived_at IS NULL
           ORDER BY md5(id::text) LIMIT 160)`,
        [orgId, agents.map((a) => a.memberId), projectIds.slice(0, 51)],
      )
    ).rows.map((r) => r.id);
  } finally {
    await c.end();
  }
  log(
    `heartbeat: organization of ${seeded.seededIssues} issues, ${nProjects} projects, ${strategy.kpis} KPIs, ${strategy.initiatives} initiatives, ${strategy.goals} goals, ${nAgents} project-scoped agents (4 access groups of 15 projects) seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );

  // BENCH_HB_STATE=<file>: the organization, the agents' and the writer's keys and the write
  // targets, for probes against the kept database (BENCH_KEEP_DB=1)
  if (env.BENCH_HB_STATE)
    writeFileSync(
      env.BENCH_HB_STATE,
      JSON.stringify({
        databaseUrl,
        orgId,
        agents: agents.map((a) => ({ key: a.key, memberId: a.memberId, group: a.group })),
        writerKey: writer.apiKey,
        writeTargets,
      }),
    );

  // ---- measuring
  const runs = [];
  // BENCH_HB_RUNS: the runs to make, by name (default all four)
  const only = env.BENCH_HB_RUNS ? new Set(env.BENCH_HB_RUNS.split(',').map((x) => x.trim())) : null;
  for (const mode of ['cached', 'uncached']) {
    for (const view of ['compact', 'full']) {
      if (only && !only.has(`heartbeat-${view}${mode === 'uncached' ? '-uncached' : ''}`)) continue;
      const apiBase = apis[mode].base;
      const path = `/api/orgs/${orgId}/heartbeat${view === 'full' ? '?view=full' : ''}`;
      // every agent's first answer must be a 200 of the right shape
      for (const a of agents) {
        const r = await call(apiBase, 'GET', path, { headers: { authorization: `Bearer ${a.key}` }, expect: 200 });
        if (view === 'compact' ? !r.body.page : !Array.isArray(r.body.goals)) throw new Error(`heartbeat (${view}) answered an unexpected shape`);
      }
      const httpAgent = new Agent({ keepAlive: true, maxSockets: nAgents + 4 });
      const writerAgent = new Agent({ keepAlive: true, maxSockets: 4 });
      let stop = false;
      let recording = false;
      const latencies = [];
      let non2xx = 0;
      let writes = 0;
      let writeErrors = 0;
      const loops = agents.map(async (a) => {
        const headers = { authorization: `Bearer ${a.key}` };
        while (!stop) {
          const r = await get(httpAgent, apiBase, path, headers);
          if (!recording) continue;
          latencies.push(r.ms);
          if (r.status < 200 || r.status >= 300) non2xx++;
        }
      });
      let writeFailure = null;
      const patch = (id, body) =>
        new Promise((resolve) => {
          const payload = JSON.stringify(body);
          const req = request(
            `${apiBase}/api/orgs/${orgId}/issues/${id}`,
            {
              method: 'PATCH',
              agent: writerAgent,
              headers: { authorization: `Bearer ${writer.apiKey}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
            },
            (res) => {
              const chunks = [];
              res.on('data', (d) => chunks.push(d));
              res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString().slice(0, 300) }));
            },
          );
          req.on('error', (e) => resolve({ status: 0, text: e.message }));
          req.end(payload);
        });
      // the writer keeps its pace (at most 8 writes in flight) whatever the answers' latency
      const writerLoop = (async () => {
        const start = Date.now();
        const inflight = new Set();
        for (let i = 0; !stop; i++) {
          const due = start + (i * 1000) / writesPerSecond;
          const wait = due - Date.now();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
          if (stop) break;
          // every write is a real change in every run: the bodies of an earlier run would be no-ops
          // (no version moves, nothing invalidated), so each run writes the next value
          const pass = runs.length;
          const id = writeTargets[i % writeTargets.length];
          const body = i % 2 === 0 ? { priority: (i / 2 + pass) % 4 } : { status: (Math.floor(i / 2) + pass) % 2 ? 'in_progress' : 'todo' };
          const counted = recording;
          const p = patch(id, body).then((r) => {
            if (!counted) return;
            if (r.status === 200) writes++;
            else {
              writeErrors++;
              writeFailure ??= `${r.status} ${r.text}`;
            }
          });
          inflight.add(p);
          p.finally(() => inflight.delete(p));
          if (inflight.size >= 8) await Promise.race(inflight);
        }
        await Promise.all(inflight);
      })();
      await new Promise((r) => setTimeout(r, warmup * 1000));
      const loadBefore = loadavg()[0];
      recording = true;
      const t1 = Date.now();
      await new Promise((r) => setTimeout(r, duration * 1000));
      recording = false;
      const elapsed = (Date.now() - t1) / 1000;
      stop = true;
      await Promise.all([...loops, writerLoop]);
      httpAgent.destroy();
      writerAgent.destroy();
      const sorted = latencies.sort((x, y) => x - y);
      const target = mode === 'cached' ? HEARTBEAT_TARGETS[view] : null;
      const p99 = round(pct(sorted, 99));
      const run = {
        name: `heartbeat-${view}${mode === 'uncached' ? '-uncached' : ''}`,
        mode,
        view,
        agents: nAgents,
        requests: sorted.length,
        requestsPerSecond: Math.round(sorted.length / elapsed),
        latencyMs: { p50: round(pct(sorted, 50)), p90: round(pct(sorted, 90)), p99, max: round(sorted.at(-1) ?? 0) },
        writesPerSecond: round(writes / elapsed),
        writeErrors,
        ...(writeFailure && { writeFailure }),
        non2xx,
        load1m: { before: Math.round(loadBefore * 100) / 100, after: Math.round(loadavg()[0] * 100) / 100 },
        targetP99Ms: target,
        pass: target === null ? null : non2xx === 0 && writeErrors === 0 && p99 <= target,
      };
      runs.push(run);
      log(
        `${run.name}: ${run.requestsPerSecond} req/s at ${nAgents} agents, p50 ${run.latencyMs.p50} ms, p99 ${p99} ms, max ${run.latencyMs.max} ms; ${run.writesPerSecond} writes/s${writeFailure ? ` (${writeErrors} failed: ${writeFailure})` : ''}; load ${run.load1m.before} -> ${run.load1m.after}${target === null ? '' : ` (target p99 ≤ ${target} ms: ${run.pass ? 'PASS' : 'FAIL'})`}`,
      );
    }
  }
  for (const a of Object.values(apis)) {
    a.entry.child.kill('SIGTERM');
    await a.entry.exited;
  }
  return {
    organization: { issues: seeded.seededIssues, projects: nProjects, agents: nAgents, accessGroups: 4, projectsPerGroup: 15, ...strategy },
    runs,
    pass: runs.every((r) => r.pass !== false),
  };
}

/** The phase's table (printed by run.mjs). */
export function heartbeatTable(result) {
  const head = ['run', 'req/s', 'p50', 'p90', 'p99', 'max', 'writes/s', 'load 1m', 'p99 ≤', 'result'];
  const body = result.runs.map((r) => [
    r.name,
    String(r.requestsPerSecond),
    `${r.latencyMs.p50} ms`,
    `${r.latencyMs.p90} ms`,
    `${r.latencyMs.p99} ms`,
    `${r.latencyMs.max} ms`,
    String(r.writesPerSecond),
    `${r.load1m.before} → ${r.load1m.after}`,
    r.targetP99Ms === null ? '-' : `${r.targetP99Ms} ms`,
    r.pass === null ? '(reference)' : r.pass ? 'PASS' : 'FAIL',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 || i === 9 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}
