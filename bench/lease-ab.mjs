// Paired CPU probe of the lease writes (not part of `npm run bench`): two builds of the API, DIR_A and DIR_B (after
// `npm run build` in each), run side by side on one fresh database; a renewal, then a losing claim (409
// RUNNER_LEASE_HELD), is sent to A, then to B, one request at a time, N times, and each process's CPU time
// per request is printed (whole process and main thread, from Linux /proc). Interleaving the two is what
// makes the comparison fair on a machine whose speed drifts from one minute to the next (single runs of
// one build vary by a third here). ENV_A/ENV_B: extra environment as JSON (`NODE_ARGS`: node flags).
// The PostgreSQL backends serving each API are found by their client ports (`ss`), and their CPU
// per request is printed beside.
//   node bench/lease-ab.mjs DIR_A DIR_B [N=3000] [ENV_A] [ENV_B]
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { keepAliveCaller, waitForHttp } from './http.mjs';
if (process.argv.length < 4) {
  console.error('usage: node bench/lease-ab.mjs DIR_A DIR_B [N] [ENV_A json] [ENV_B json]');
  process.exit(2);
}
const [dirA, dirB] = [resolve(process.argv[2]), resolve(process.argv[3])];
const N = Number(process.argv[4] ?? 3000);
const envA = JSON.parse(process.argv[5] ?? '{}'),
  envB = JSON.parse(process.argv[6] ?? '{}');
const require = createRequire(join(dirA, 'package.json'));
const { runMigrations } = require(join(dirA, 'dist/src/database/migrate.js'));
const { Client } = require('pg');
const call = keepAliveCaller();
const admin = process.env.BENCH_PG_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const id = randomBytes(4).toString('hex');
const dbName = `abprobe_${id}`;
const dbUrl = Object.assign(new URL(admin), { pathname: `/${dbName}` }).toString();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function q(url, sql, v) {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return await c.query(sql, v);
  } finally {
    await c.end();
  }
}
const cpu = (pid, main) => {
  const f = readFileSync(main ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, 'utf8')
    .split(') ')[1]
    .split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
};
const dataDir = mkdtempSync(join(tmpdir(), 'abprobe-'));
const procs = [];
async function start(dir, port, extra) {
  const p = spawn(process.execPath, [...(extra.NODE_ARGS ?? '').split(' ').filter(Boolean), join(dir, 'dist/src/main.js')], {
    cwd: dir,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      SESSION_SECRET: 'x'.repeat(64),
      SERVICE_ENCRYPTION_KEY: 'a'.repeat(64),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: dbUrl,
      DATABASE_POOL_SIZE: '20',
      REDIS_URL: process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379/13',
      QUEUE_PREFIX: `ab-${id}-${port}`,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      MIGRATIONS_RUN: '0',
      AUTH_RATE_LIMIT_PER_MINUTE: '100000',
      ...extra,
    },
  });
  procs.push(p);
  const base = `http://127.0.0.1:${port}`;
  await waitForHttp(base, '/health', { child: p, name: `API of ${dir}` }, 60_000);
  return { base, pid: p.pid };
}
try {
  await q(admin, `CREATE DATABASE ${dbName}`);
  await runMigrations({ databaseUrl: dbUrl, databasePoolSize: 1 });
  const port = 20000 + Math.floor(Math.random() * 20000);
  const A = await start(dirA, port, envA),
    B = await start(dirB, port + 1, envB);
  const su = await call(A.base, 'POST', '/api/auth/signup', {
    body: { email: `ab-${id}@x.example.com`, password: `pw-${randomBytes(8).toString('hex')}`, display_name: 'AB' },
    expect: 201,
  });
  const cookie = []
    .concat(su.headers['set-cookie'])
    .map((c) => c.split(';')[0])
    .find((c) => c.startsWith('sid='));
  const orgId = (await call(A.base, 'POST', '/api/orgs', { cookie, body: { name: 'AB' }, expect: 201 })).body.organization.id;
  const projectId = (await call(A.base, 'POST', `/api/orgs/${orgId}/projects`, { cookie, body: { name: 'AB' }, expect: 201 })).body.project.id;
  const sides = [];
  for (const S of [A, B]) {
    const agent = (
      await call(A.base, 'POST', `/api/orgs/${orgId}/agents`, { cookie, body: { name: `AB ${sides.length}`, projectIds: [projectId] }, expect: 201 })
    ).body;
    const issue = (await call(A.base, 'POST', `/api/orgs/${orgId}/issues`, { cookie, body: { title: 'AB', projectId }, expect: 201 })).body.issue;
    const memberId = agent.agent.member_id ?? agent.agent.id;
    await q(dbUrl, 'UPDATE issues SET assignee_id = $3 WHERE org_id = $1 AND id = $2', [orgId, issue.id, memberId]);
    sides.push({ S, headers: { authorization: `Bearer ${agent.apiKey}` }, issue, memberId });
  }
  // each agent also assigned to the other's issue: its claims there lose (RUNNER_LEASE_HELD)
  for (const [x, y] of [
    [0, 1],
    [1, 0],
  ])
    await q(dbUrl, 'INSERT INTO issue_assignees (org_id, issue_id, member_id, position) VALUES ($1, $2, $3, 1)', [orgId, sides[y].issue.id, sides[x].memberId]);
  for (const s of sides) {
    await call(s.S.base, 'PUT', `/api/orgs/${orgId}/runners/self`, {
      headers: s.headers,
      body: { runner: { instanceId: randomUUID(), platform: 'linux', arch: 'x64', capabilities: ['codex', 'git'], clientVersion: '1.0.0' } },
      expect: 201,
    });
    const c = await call(s.S.base, 'POST', `/api/orgs/${orgId}/runner-leases/claim`, {
      headers: s.headers,
      body: { issueId: s.issue.id, idempotencyKey: randomUUID() },
      expect: 201,
    });
    s.lease = { id: c.body.lease.id, token: c.body.token, gen: c.body.lease.claim_generation, seq: 0 };
  }
  const renew = (s) =>
    call(s.S.base, 'PATCH', `/api/orgs/${orgId}/runner-leases/${s.lease.id}`, {
      headers: s.headers,
      body: { token: s.lease.token, claimGeneration: s.lease.gen, sequence: ++s.lease.seq, mutationId: randomUUID(), transition: 'renew' },
      expect: 200,
    });
  const lose = (s, other) =>
    call(s.S.base, 'POST', `/api/orgs/${orgId}/runner-leases/claim`, {
      headers: s.headers,
      body: { issueId: other.issue.id, idempotencyKey: randomUUID() },
      expect: 409,
    });
  /**
   * The PostgreSQL backends serving each API (pids): pg_stat_activity's client ports matched to the
   * sockets `ss` shows each API process holding.
   */
  const backendsOf = async () => {
    const owner = new Map();
    for (const line of execFileSync('ss', ['-tnpH', 'state', 'established'], { encoding: 'utf8' }).split('\n')) {
      const m = /^\S+\s+\S+\s+127\.0\.0\.1:(\d+)\s+127\.0\.0\.1:5432\s.*pid=(\d+)/.exec(line);
      if (m) owner.set(Number(m[1]), Number(m[2]));
    }
    const { rows } = await q(admin, 'SELECT pid, client_port FROM pg_stat_activity WHERE datname = $1', [dbName]);
    return [A, B].map((S) => rows.filter((r) => owner.get(r.client_port) === S.pid).map((r) => r.pid));
  };
  const cpuOf = (pids) =>
    pids.reduce((sum, pid) => {
      try {
        return sum + cpu(pid);
      } catch {
        return sum; // the backend ended
      }
    }, 0);
  const measure = async (name, fnA, fnB) => {
    for (let k = 0; k < 200; k++) {
      await fnA();
      await fnB();
    }
    const backends = await backendsOf();
    const c0 = [A, B].map((S, i) => [cpu(S.pid), cpu(S.pid, true), cpuOf(backends[i])]);
    for (let k = 0; k < N; k++) {
      await fnA();
      await fnB();
    }
    const c1 = [A, B].map((S, i) => [cpu(S.pid), cpu(S.pid, true), cpuOf(backends[i])]);
    // a backend the pool opened during the run is not counted (the pool of a one-at-a-time load keeps its connections)
    const per = (i, k) => ((c1[i][k] - c0[i][k]) / N).toFixed(3);
    const f = (i) => `process ${per(i, 0)} main ${per(i, 1)} database ${per(i, 2)} (${backends[i].length} backends)`;
    console.log(`${name}: A ${f(0)} | B ${f(1)}  ms/request`);
  };
  await measure(
    'renew',
    () => renew(sides[0]),
    () => renew(sides[1]),
  );
  await measure(
    'losing claim',
    () => lose(sides[0], sides[1]),
    () => lose(sides[1], sides[0]),
  );
} finally {
  for (const p of procs) p.kill('SIGTERM');
  await sleep(800);
  await q(admin, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
  rmSync(dataDir, { recursive: true, force: true });
}
