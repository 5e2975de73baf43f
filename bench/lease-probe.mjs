// Single-runner lease-write probe (not part of `npm run bench`; after `npm run build`):
//   node bench/lease-probe.mjs [renewals=200]   (BENCH_API_NODE_ARGS: node flags for the API, e.g. --cpu-prof)
// Creates its own database, starts the built API with a preload that records every statement sent
// through pg's Client (bench/pg-statements.cjs), registers one runner, claims one issue and renews
// the lease `renewals` times one after another, then prints per renewal: statements (with the
// transaction's BEGIN/COMMIT), database time (send to answer, summed), client latency and the API
// process's CPU time per request (Linux; use a few thousand renewals for a stable figure); and the
// same for presence refreshes (PUT runners/self). Drops the database afterwards.
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { call, waitForHttp } from './http.mjs';

const require = createRequire(import.meta.url);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const { runMigrations } = require('../dist/src/database/migrate.js');
const { Client } = require('pg');
const N = Number(process.argv[2] ?? 200);
const adminUrl = process.env.BENCH_PG_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379/13';
const runId = randomBytes(4).toString('hex');
const dbName = `service_probe_${runId}`;
const dataDir = mkdtempSync(join(tmpdir(), 'lease-probe-'));
const out = join(dataDir, 'statements.json');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] * 100) / 100 : null;
};
/** CPU time (user + system, ms) the process `pid` (or only its main thread) has used so far (Linux /proc; null elsewhere). */
const cpuMs = (pid, mainThread = false) => {
  try {
    const f = readFileSync(mainThread ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, 'utf8')
      .split(') ')[1]
      .split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return null;
  }
};
const dbUrl = (name) => Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
async function admin(sql) {
  const c = new Client({ connectionString: adminUrl });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}
const freePort = () =>
  new Promise((res) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => res(p));
    });
  });
let api;
async function main() {
  await admin(`CREATE DATABASE ${dbName}`);
  await runMigrations({ databaseUrl: dbUrl(dbName), databasePoolSize: 1 });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  api = spawn(
    process.execPath,
    [...(process.env.BENCH_API_NODE_ARGS ?? '').split(' ').filter(Boolean), '--require', join(ROOT, 'bench/pg-statements.cjs'), join(ROOT, 'dist/src/main.js')],
    {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: {
        ...process.env,
        NODE_ENV: 'production',
        SESSION_SECRET: randomBytes(32).toString('hex'),
        SERVICE_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: dbUrl(dbName),
        DATABASE_POOL_SIZE: '20',
        REDIS_URL: redisUrl,
        QUEUE_PREFIX: `probe-${runId}`,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        MIGRATIONS_RUN: '0',
        AUTH_RATE_LIMIT_PER_MINUTE: '100000',
        PG_STATEMENTS_OUT: out,
      },
    },
  );
  api.on('exit', (code, sig) => console.error(`API exited: ${code} ${sig}`));
  await waitForHttp(base, '/health', { child: api, name: 'API' }, 60_000);
  const email = `probe-${runId}@bench.example.com`;
  const su = await call(base, 'POST', '/api/auth/signup', {
    body: { email, password: `pw-${randomBytes(8).toString('hex')}`, display_name: 'Probe' },
    expect: 201,
  });
  const cookie = su.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .find((c) => c.startsWith('sid='));
  const orgId = (await call(base, 'POST', '/api/orgs', { cookie, body: { name: 'Probe' }, expect: 201 })).body.organization.id;
  const projectId = (await call(base, 'POST', `/api/orgs/${orgId}/projects`, { cookie, body: { name: 'Probe' }, expect: 201 })).body.project.id;
  const agent = (await call(base, 'POST', `/api/orgs/${orgId}/agents`, { cookie, body: { name: 'Probe runner', projectIds: [projectId] }, expect: 201 })).body;
  const memberId = agent.agent.member_id ?? agent.agent.id;
  const issue = (await call(base, 'POST', `/api/orgs/${orgId}/issues`, { cookie, body: { title: 'Probe issue', projectId }, expect: 201 })).body.issue;
  const db = new Client({ connectionString: dbUrl(dbName) });
  await db.connect();
  await db.query('UPDATE issues SET assignee_id = $3 WHERE org_id = $1 AND id = $2', [orgId, issue.id, memberId]);
  await db.end();
  const headers = { authorization: `Bearer ${agent.apiKey}` };
  const runner = { runner: { instanceId: randomUUID(), platform: 'linux', arch: 'x64', capabilities: ['codex', 'git'], clientVersion: '1.0.0' } };
  await call(base, 'PUT', `/api/orgs/${orgId}/runners/self`, { headers, body: runner, expect: 201 });
  const c = await call(base, 'POST', `/api/orgs/${orgId}/runner-leases/claim`, {
    headers,
    body: { issueId: issue.id, idempotencyKey: randomUUID() },
    expect: 201,
  });
  const lease = { id: c.body.lease.id, token: c.body.token, gen: c.body.lease.claim_generation, seq: 0 };
  const renew = () =>
    call(base, 'PATCH', `/api/orgs/${orgId}/runner-leases/${lease.id}`, {
      headers,
      body: { token: lease.token, claimGeneration: lease.gen, sequence: ++lease.seq, mutationId: randomUUID(), transition: 'renew' },
      expect: 200,
    });
  const measure = async (name, n, fn) => {
    for (let k = 0; k < 10; k++) await fn(); // warm-up
    await dump();
    const lat = [];
    const cpu0 = cpuMs(api.pid);
    const main0 = cpuMs(api.pid, true);
    for (let k = 0; k < n; k++) {
      const t0 = performance.now();
      await fn();
      lat.push(performance.now() - t0);
    }
    const cpu = cpu0 === null ? null : (cpuMs(api.pid) - cpu0) / n;
    const mainCpu = main0 === null ? null : (cpuMs(api.pid, true) - main0) / n;
    const stmts = await dump();
    const byText = new Map();
    for (const s of stmts) {
      const e = byText.get(s.t) ?? { n: 0, ms: 0 };
      e.n++;
      e.ms += s.ms;
      byText.set(s.t, e);
    }
    console.log(
      `${name}: ${n} requests; ${(stmts.length / n).toFixed(2)} statements and ${(stmts.reduce((a, s) => a + s.ms, 0) / n).toFixed(2)} ms database time per request; latency p50 ${pct(lat, 50)} ms, p99 ${pct(lat, 99)} ms${cpu === null ? '' : `; API process CPU ${cpu.toFixed(3)} ms per request (main thread ${mainCpu.toFixed(3)} ms)`}`,
    );
    for (const [t, e] of [...byText].sort((a, b) => b[1].ms - a[1].ms)) console.log(`  ${(e.n / n).toFixed(2)} x ${(e.ms / e.n).toFixed(3)} ms  ${t}`);
  };
  const dump = async () => {
    process.kill(api.pid, 'SIGWINCH');
    for (let i = 0; i < 50; i++) {
      await sleep(50);
      try {
        const s = JSON.parse(readFileSync(out, 'utf8'));
        rmSync(out);
        return s;
      } catch {
        /* not written yet */
      }
    }
    throw new Error('no statement dump');
  };
  await measure('renew (PATCH runner-leases/{id})', N, renew);
  // a second assigned agent's claims of the held issue: 409 RUNNER_LEASE_HELD (the common claim of the bench's race)
  const other = (await call(base, 'POST', `/api/orgs/${orgId}/agents`, { cookie, body: { name: 'Probe rival', projectIds: [projectId] }, expect: 201 })).body;
  const db2 = new Client({ connectionString: dbUrl(dbName) });
  await db2.connect();
  await db2.query('INSERT INTO issue_assignees (org_id, issue_id, member_id, position) VALUES ($1, $2, $3, 1)', [
    orgId,
    issue.id,
    other.agent.member_id ?? other.agent.id,
  ]);
  await db2.end();
  const rival = { authorization: `Bearer ${other.apiKey}` };
  await call(base, 'PUT', `/api/orgs/${orgId}/runners/self`, { headers: rival, body: { runner: { ...runner.runner, instanceId: randomUUID() } }, expect: 201 });
  await measure('losing claim (POST runner-leases/claim, 409 RUNNER_LEASE_HELD)', N, () =>
    call(base, 'POST', `/api/orgs/${orgId}/runner-leases/claim`, { headers: rival, body: { issueId: issue.id, idempotencyKey: randomUUID() }, expect: 409 }),
  );
  // a claim that wins and the write that completes it, alternately (the contested issues' cycle)
  await call(base, 'PATCH', `/api/orgs/${orgId}/runner-leases/${lease.id}`, {
    headers,
    body: { token: lease.token, claimGeneration: lease.gen, sequence: ++lease.seq, mutationId: randomUUID(), transition: 'completed' },
    expect: 200,
  });
  let cur = null;
  const cycle = (k) => async () => {
    if (k === 'claim') {
      const r = await call(base, 'POST', `/api/orgs/${orgId}/runner-leases/claim`, {
        headers,
        body: { issueId: issue.id, idempotencyKey: randomUUID() },
        expect: 201,
      });
      cur = { id: r.body.lease.id, token: r.body.token, gen: r.body.lease.claim_generation };
    } else {
      await call(base, 'PATCH', `/api/orgs/${orgId}/runner-leases/${cur.id}`, {
        headers,
        body: { token: cur.token, claimGeneration: cur.gen, sequence: 1, mutationId: randomUUID(), transition: 'completed' },
        expect: 200,
      });
    }
  };
  const pairs = Math.min(N, 100);
  for (let k = 0; k < 5; k++) {
    await cycle('claim')();
    await cycle('complete')();
  }
  await dump();
  const stat = { claim: { lat: [], stmts: 0, ms: 0, by: new Map() }, complete: { lat: [], stmts: 0, ms: 0, by: new Map() } };
  for (let k = 0; k < pairs; k++) {
    for (const kind of ['claim', 'complete']) {
      const t0 = performance.now();
      await cycle(kind)();
      stat[kind].lat.push(performance.now() - t0);
      const st = await dump();
      stat[kind].stmts += st.length;
      stat[kind].ms += st.reduce((a, x) => a + x.ms, 0);
      for (const x of st) stat[kind].by.set(x.t, (stat[kind].by.get(x.t) ?? 0) + 1);
    }
  }
  for (const kind of ['claim', 'complete'])
    console.log(
      `${kind === 'claim' ? 'winning claim (POST runner-leases/claim, 201)' : 'completion (PATCH, transition completed)'}: ${pairs} requests; ${(stat[kind].stmts / pairs).toFixed(2)} statements and ${(stat[kind].ms / pairs).toFixed(2)} ms database time per request; latency p50 ${pct(stat[kind].lat, 50)} ms, p99 ${pct(stat[kind].lat, 99)} ms (includes the statement dump)`,
    );
  for (const kind of ['claim', 'complete']) for (const [t, n] of stat[kind].by) console.log(`  ${kind} ${(n / pairs).toFixed(2)} x ${t}`);
  await measure('presence (PUT runners/self)', 25, () => call(base, 'PUT', `/api/orgs/${orgId}/runners/self`, { headers, body: runner, expect: 200 }));
}

main()
  .catch((e) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(async () => {
    api?.kill('SIGTERM');
    await sleep(500);
    await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
  });
