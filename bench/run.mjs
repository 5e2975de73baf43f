// `npm run bench` (after `npm run build`): throughput of the built API against a minimal baseline.
//
// 1. creates its own database on the local PostgreSQL and applies the migrations (from dist/);
// 2. starts the built API (`node dist/src/main.js`) and seeds through the HTTP API: an owner, an
//    organization, ~50 human members, 2 projects and an organization agent with an API key;
// 3. starts the baseline (bench/baseline.mjs: node:http + pg, same pool size, same SQL);
// 4. for every scenario in bench/scenarios.mjs, runs autocannon against the service and then the
//    baseline (warm-up, then the measured run), and compares requests/s: PASS when
//    service / baseline >= the target ratio;
// 5. prints a table, writes bench/results/latest.json, stops every child and drops the database
//    (also on failure or Ctrl-C). Exit code: 0 all PASS, 1 a scenario FAILed, 2 the run broke.
//
// Knobs (environment): BENCH_PG_ADMIN_URL (postgres://postgres@127.0.0.1:5432/postgres),
// BENCH_REDIS_URL (redis://127.0.0.1:6379/13), BENCH_CONNECTIONS (50), BENCH_DURATION (10 s),
// BENCH_WARMUP (2 s), BENCH_MEMBERS (50), BENCH_TARGET_RATIO (0.5), BENCH_POOL_SIZE (20),
// BENCH_ONLY (comma-separated scenario names), BENCH_API_NODE_ARGS (extra node flags for the API,
// e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile it; the webhook_fanout API gets them too),
// BENCH_WORKER_NODE_ARGS (the same for the webhook_fanout worker processes), BENCH_PROJECTS (20: projects of the
// bench organization), BENCH_ISSUES (100000: issues bulk-seeded over them, see seed-issues.mjs),
// BENCH_GRAPH_ISSUES (5000: issues of the first project in the dependency DAG), BENCH_KEEP_DB=1
// (keep the seeded database, e.g. to EXPLAIN ANALYZE the queries; drop it yourself),
// BENCH_LATENCY_CONNECTIONS (1; 0 = off) and BENCH_LATENCY_DURATION (5 s): for scenarios with a
// p99 target, an extra service-only pass at that concurrency, reported beside the 50-connection
// figures (the p99 target is judged at BENCH_CONNECTIONS; the extra pass shows how much of the
// latency is queueing on this machine rather than the request's own cost).
//
// Scenarios may carry their own targets: `ratio` (service/baseline req/s at least; null: no ratio
// target, default BENCH_TARGET_RATIO), `p99` (ms; the service's p99 latency at most), `connections`
// (their own concurrency instead of BENCH_CONNECTIONS) and `scaleVsOne` (the service's req/s at
// `connections` at least that many times its req/s at 1 connection, measured in a 1-connection pass
// of BENCH_DURATION). A scenario PASSes when every target it has is met and neither side answered
// non-2xx or errored.
//
// Write scenarios (bench/write-scenarios.mjs; BENCH_WRITE_CONNECTIONS, default 20, and
// BENCH_WRITE_PROJECTS, default every bench project) write as an organization agent with role member
// and `edit` grants ("Bench writer"); each request gets the next `k` of the run (its target and
// body), fixtures are made once (`setup`) and every pass's rows are removed after it (`reset`), so
// each pass starts from the same tables.
// The service's V8 heap settings (src/process/heap-tuning.ts) for the load generator too, and for the
// baseline and floor servers (they import it as well): their own collections are not the service's latency.
import '../dist/src/process/heap-tuning.js';
import { fork, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scenarios as allScenarios } from './scenarios.mjs';
import { seedIssues } from './seed-issues.mjs';
import { seedArtifacts } from './seed-artifacts.mjs';
import { seedStrategy, timeFormulaRecalculation } from './seed-strategy.mjs';
import { runnerLeases } from './runners.mjs';
import { heartbeatAgents, heartbeatTable } from './heartbeat.mjs';
import { webhookFanout } from './webhooks.mjs';
import { call, waitForHttp } from './http.mjs';

const require = createRequire(import.meta.url);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const { runMigrations } = require('../dist/src/database/migrate.js');
const autocannon = require('autocannon');
const { Client } = require('pg');
const Redis = require('ioredis');

const env = process.env;
const num = (name, dflt) => {
  const v = env[name] === undefined || env[name] === '' ? dflt : Number(env[name]);
  if (!Number.isFinite(v) || v <= 0) throw new Error(`${name} must be a positive number, got "${env[name]}"`);
  return v;
};
const opts = {
  pgAdminUrl: env.BENCH_PG_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
  redisUrl: env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379/13',
  connections: num('BENCH_CONNECTIONS', 50),
  duration: num('BENCH_DURATION', 10),
  warmup: num('BENCH_WARMUP', 2),
  members: num('BENCH_MEMBERS', 50),
  targetRatio: num('BENCH_TARGET_RATIO', 0.5),
  poolSize: num('BENCH_POOL_SIZE', 20),
  projects: num('BENCH_PROJECTS', 20),
  issues: num('BENCH_ISSUES', 100_000),
  graphIssues: num('BENCH_GRAPH_ISSUES', 5000),
  // 0 turns the unloaded-latency pass off
  latencyConnections: env.BENCH_LATENCY_CONNECTIONS === '0' ? 0 : num('BENCH_LATENCY_CONNECTIONS', 1),
  latencyDuration: num('BENCH_LATENCY_DURATION', 5),
};
/** Extra node flags for the API process, e.g. BENCH_API_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof". */
const apiNodeArgs = (env.BENCH_API_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
/** Extra node flags for the webhook_fanout worker process (same form), e.g. BENCH_WORKER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof". */
const workerNodeArgs = (env.BENCH_WORKER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
const only = (env.BENCH_ONLY ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const scenarios = only.length ? allScenarios.filter((s) => only.includes(s.name)) : allScenarios;
// `webhook_fanout` (bench/webhooks.mjs) is not an autocannon scenario: it has its own phase
const runFanout = !only.length || only.includes('webhook_fanout');
const runLeases = !only.length || only.includes('runner_leases');
// `heartbeat` (bench/heartbeat.mjs): its own organization of the issue's size, 20 agents with mixed
// access and writers during the measured run; not autocannon either
const runHeartbeat = !only.length || only.includes('heartbeat');
if (only.length && scenarios.length + (runFanout ? 1 : 0) + (runLeases ? 1 : 0) + (runHeartbeat ? 1 : 0) !== only.length) {
  console.error(`BENCH_ONLY: unknown scenario(s); known: ${allScenarios.map((s) => s.name).join(', ')}, webhook_fanout, runner_leases, heartbeat`);
  process.exit(2);
}

const runId = `${process.pid}_${randomBytes(3).toString('hex')}`;
const dbName = `service_bench_${runId}`;
const queuePrefix = `bench-${runId}`;
const dataDir = mkdtempSync(join(tmpdir(), 'service-bench-'));
const children = [];
const log = (m) => console.log(`[bench] ${m}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function dbUrl(name) {
  const u = new URL(opts.pgAdminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin(sql) {
  const c = new Client({ connectionString: opts.pgAdminUrl });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
}

function track(child, name) {
  const exited = new Promise((res) => child.once('exit', (code, signal) => res({ code, signal })));
  const entry = { child, name, exited };
  children.push(entry);
  return entry;
}

async function stopChild({ child, exited }) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(t);
}

let cleaned = false;
async function cleanup() {
  if (cleaned) return;
  cleaned = true;
  await Promise.all(children.map(stopChild));
  try {
    if (env.BENCH_KEEP_DB === '1') {
      log(`kept database ${dbName} (BENCH_KEEP_DB=1; drop it yourself)`);
      throw null;
    }
    await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    log(`dropped database ${dbName}`);
  } catch (e) {
    if (e !== null) console.error(`[bench] could not drop database ${dbName}: ${e.message}`);
  }
  const r = new Redis(opts.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await r.connect();
    const keys = await r.keys(`${queuePrefix}:*`);
    if (keys.length) await r.del(...keys);
  } catch {
    /* best effort: the keys are under this run's own prefix */
  } finally {
    r.disconnect();
  }
  rmSync(dataDir, { recursive: true, force: true });
}

for (const sig of ['SIGINT', 'SIGTERM']) {
  process.once(sig, () => {
    console.error(`[bench] ${sig}: cleaning up`);
    cleanup().finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------------------------------------
// HTTP helpers for seeding

/** Seeding signs up ~50 accounts from one address and invites them into one organization; the API
 * runs with signup/login and invitation budgets (AUTH_RATE_LIMIT_PER_MINUTE,
 * INVITATION_RATE_LIMIT_PER_HOUR) large enough for that. */

async function signup(base, tag) {
  const email = `${tag}-${randomBytes(4).toString('hex')}@bench.example.com`;
  const res = await call(base, 'POST', '/api/auth/signup', {
    body: { email, password: `pw-${randomBytes(8).toString('hex')}`, display_name: `${tag} ${randomBytes(2).toString('hex')}` },
    expect: 201,
  });
  const cookie = (res.headers.getSetCookie?.() ?? [res.headers.get('set-cookie')]).map((c) => String(c).split(';')[0]).find((c) => c.startsWith('sid='));
  if (!cookie) throw new Error('signup did not set the session cookie');
  return { email, cookie, userId: res.body.user.id };
}

/** Runs `fn` over `items` with at most `n` at a time. */
async function pool(items, n, fn) {
  const queue = [...items.entries()];
  await Promise.all(
    Array.from({ length: Math.min(n, queue.length) }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await fn(next[1], next[0]);
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Measuring

function cannon(url, headers, duration, connections = opts.connections, requests = undefined) {
  return new Promise((res, rej) => {
    autocannon({ url, headers, connections, duration, ...(requests ? { requests } : {}) }, (err, result) => (err ? rej(err) : res(result)));
  });
}

/** The k of every write request of the run (service, baseline and 1-connection passes continue it). */
let writeK = 0;

/** The autocannon request of a write scenario: the next k's path and body, for the service or the baseline (`/<name>?…`). */
function writeRequests(s, ctx, side) {
  return [
    {
      method: s.method,
      setupRequest: (req) => {
        const k = writeK++;
        const path = side === 'service' ? s.path(ctx, k) : `/${s.name}${s.baselineQuery ? `?${new URLSearchParams(s.baselineQuery(ctx, k))}` : ''}`;
        return { ...req, method: s.method, path, body: JSON.stringify(s.body(ctx, k)) };
      },
    },
  ];
}

/** Latency at low concurrency (service only): the request's own cost without the queueing. */
async function measureLatency(url, headers, requests = undefined, connections = opts.latencyConnections, duration = opts.latencyDuration) {
  await cannon(url, headers, 1, connections, requests);
  const before = machineTicks();
  const r = await cannon(url, headers, duration, connections, requests);
  const after = machineTicks();
  return {
    connections,
    // share of all cores busy during the pass (everything on the machine, the load generator included)
    machineBusy: before && after ? (after.busy - before.busy) / (after.total - before.total || 1) : null,
    requestsPerSecond: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
  };
}

/** All cores' busy and total ticks so far, from /proc/stat (Linux); null elsewhere. */
function machineTicks() {
  try {
    const t = readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).slice(1).map(Number);
    const idle = t[3] + (t[4] || 0);
    const total = t.reduce((a, b) => a + b, 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

/** CPU time (ms) a process has used so far, from /proc (Linux); null elsewhere. */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in USER_HZ (100)
  } catch {
    return null;
  }
}

async function measure(url, headers, pid, connections = opts.connections, requests = undefined) {
  await cannon(url, headers, opts.warmup, connections, requests);
  const cpuBefore = cpuMs(pid);
  const r = await cannon(url, headers, opts.duration, connections, requests);
  const cpuAfter = cpuMs(pid);
  return {
    requestsPerSecond: Math.round(r.requests.average),
    // Server-process CPU per request: less sensitive to other load on the machine than req/s.
    cpuMsPerRequest:
      cpuBefore !== null && cpuAfter !== null && r.requests.total > 0 ? Math.round(((cpuAfter - cpuBefore) / r.requests.total) * 1000) / 1000 : null,
    latencyMs: { p50: r.latency.p50, p99: r.latency.p99, average: Math.round(r.latency.average * 100) / 100 },
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
  };
}

async function verify(scenario, target, url, headers, ctx) {
  let init = { headers };
  if (scenario.write) {
    const k = writeK++;
    const path =
      target === 'service'
        ? scenario.path(ctx, k)
        : `/${scenario.name}${scenario.baselineQuery ? `?${new URLSearchParams(scenario.baselineQuery(ctx, k))}` : ''}`;
    url = `${new URL(url).origin}${path}`;
    init = { method: scenario.method, headers, body: JSON.stringify(scenario.body(ctx, k)) };
  }
  const r = await fetch(url, init);
  const text = await r.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const problem = scenario.verify(r.status, body, ctx);
  if (problem) throw new Error(`${scenario.name} against the ${target}: ${problem} (${text.slice(0, 300)})`);
  return body;
}

/** JSON with sorted object keys, to compare two bodies regardless of key order. */
function canonical(v) {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

function table(rows) {
  const lc = opts.latencyConnections;
  const head = [
    'scenario',
    'service req/s',
    'p50',
    'p99',
    'cpu/req',
    'baseline req/s',
    'p50',
    'p99',
    'cpu/req',
    'ratio',
    'ratio ≥',
    'p99 ≤',
    'result',
    ...(lc ? [`p50 @${lc}c`, `p99 @${lc}c`] : []),
    'conns',
    'req/s @1c',
    'x @1c',
    'base req/s @1c',
    'base x @1c',
    'cores busy @1c',
  ];
  const cpu = (m) => (m.cpuMsPerRequest === null ? 'n/a' : `${m.cpuMsPerRequest.toFixed(2)} ms`);
  const body = rows.map((r) => [
    r.name,
    r.service.requestsPerSecond.toLocaleString('en-US'),
    `${r.service.latencyMs.p50} ms`,
    `${r.service.latencyMs.p99} ms`,
    cpu(r.service),
    r.baseline.requestsPerSecond.toLocaleString('en-US'),
    `${r.baseline.latencyMs.p50} ms`,
    `${r.baseline.latencyMs.p99} ms`,
    cpu(r.baseline),
    r.ratio.toFixed(2),
    r.targetRatio === null ? '-' : r.targetRatio.toFixed(2),
    r.targetP99Ms === null ? '-' : `${r.targetP99Ms} ms`,
    r.pass ? 'PASS' : `FAIL${r.note ? ` (${r.note})` : ''}`,
    ...(lc ? [r.lowConcurrency ? `${r.lowConcurrency.p50} ms` : '-', r.lowConcurrency ? `${r.lowConcurrency.p99} ms` : '-'] : []),
    String(r.connections),
    r.oneConnection ? r.oneConnection.requestsPerSecond.toLocaleString('en-US') : '-',
    r.oneConnection ? `${r.scale.toFixed(1)} (≥ ${r.targetScaleVsOne})` : '-',
    r.baselineOneConnection ? r.baselineOneConnection.requestsPerSecond.toLocaleString('en-US') : '-',
    r.baselineOneConnection ? r.baselineScale.toFixed(1) : '-',
    r.oneConnection?.machineBusy != null ? `${Math.round(r.oneConnection.machineBusy * 100)}%` : '-',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 || i === 12 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

/** Service and baseline (and the passes its targets ask for) of one scenario; its result row. */
async function runScenario(s, ctx, { apiBase, baseBase, apiPid, baselinePid, db }) {
  const headers = s.headers(ctx);
  const connections = s.connections ?? opts.connections;
  const serviceUrl = s.write ? apiBase : `${apiBase}${s.path(ctx)}`;
  const baselineUrl = s.write ? baseBase : `${baseBase}/${s.name}${s.baselineQuery ? `?${new URLSearchParams(s.baselineQuery(ctx))}` : ''}`;
  const requests = (side) => (s.write ? writeRequests(s, ctx, side) : undefined);
  if (s.setup) await s.setup(ctx, db);
  /** Runs a pass, then removes what it wrote (writes), once the requests autocannon left in flight are done. */
  const pass = async (fn) => {
    const since = (await db.query('SELECT now() AS t')).rows[0].t;
    try {
      return await fn();
    } finally {
      if (s.reset) {
        // quiet for 5 looks in a row (0.5 s): a request autocannon left in flight may still be
        // between statements (authenticated, its transaction not begun), which one look misses
        for (let i = 0, quiet = 0; i < 300 && quiet < 5; i++) {
          const busy = await db.query(
            `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid() AND state IN ('active', 'idle in transaction')`,
          );
          quiet = busy.rows[0].n === 0 ? quiet + 1 : 0;
          await sleep(100);
        }
        await s.reset(ctx, db, since);
      }
    }
  };
  const [serviceBody, baselineBody] = await pass(async () => [
    await verify(s, 'service', serviceUrl, headers, ctx),
    await verify(s, 'baseline', baselineUrl, headers, ctx),
  ]);
  // `sameBody`: the baseline must answer exactly what the service answers (the same page).
  if (s.sameBody && canonical(serviceBody) !== canonical(baselineBody)) {
    throw new Error(
      `${s.name}: the baseline's body differs from the service's:\n service  ${canonical(serviceBody).slice(0, 1500)}\n baseline ${canonical(baselineBody).slice(0, 1500)}`,
    );
  }
  log(`${s.name}: measuring the service at ${connections} connections`);
  const service = await pass(() => measure(serviceUrl, headers, apiPid, connections, requests('service')));
  log(`${s.name}: measuring the baseline`);
  const base = await pass(() => measure(baselineUrl, headers, baselinePid, connections, requests('baseline')));
  // writes: their own 1-connection throughput (scaleVsOne), also their unloaded latency
  const oneConnection = s.scaleVsOne ? await pass(() => measureLatency(serviceUrl, headers, requests('service'), 1, opts.duration)) : undefined;
  // the baseline's own scaling on this machine: what `scaleVsOne` can reach when the cores, not the
  // request's waits, bound the 1-connection pass
  const baselineOneConnection = s.scaleVsOne ? await pass(() => measureLatency(baselineUrl, headers, requests('baseline'), 1, opts.duration)) : undefined;
  const lowConcurrency =
    oneConnection ?? (opts.latencyConnections && s.p99 ? await pass(() => measureLatency(serviceUrl, headers, requests('service'))) : undefined);
  const ratio = base.requestsPerSecond > 0 ? service.requestsPerSecond / base.requestsPerSecond : 0;
  const scale = oneConnection?.requestsPerSecond ? service.requestsPerSecond / oneConnection.requestsPerSecond : 0;
  const baselineScale = baselineOneConnection?.requestsPerSecond ? base.requestsPerSecond / baselineOneConnection.requestsPerSecond : 0;
  const clean = [service, base, ...(oneConnection ? [oneConnection] : [])].every((m) => m.non2xx === 0 && m.errors === 0);
  const targetRatio = s.ratio === undefined ? opts.targetRatio : s.ratio;
  const targetP99Ms = s.p99 ?? null;
  const ratioOk = targetRatio === null || ratio >= targetRatio;
  const p99Ok = targetP99Ms === null || service.latencyMs.p99 <= targetP99Ms;
  const scaleOk = !s.scaleVsOne || scale >= s.scaleVsOne;
  const pass_ = clean && ratioOk && p99Ok && scaleOk;
  const notes = [!clean && 'non-2xx responses or errors during the run', !ratioOk && 'ratio', !p99Ok && 'p99', !scaleOk && 'x @1c'].filter(Boolean);
  log(
    `${s.name}: service ${service.requestsPerSecond} req/s p99 ${service.latencyMs.p99} ms${lowConcurrency ? ` (${lowConcurrency.requestsPerSecond} req/s, p99 ${lowConcurrency.p99} ms at ${lowConcurrency.connections} connection(s))` : ''}, baseline ${base.requestsPerSecond} req/s p99 ${base.latencyMs.p99} ms, ratio ${ratio.toFixed(2)}${oneConnection ? `, ${scale.toFixed(1)}x its 1-connection req/s` : ''}${baselineOneConnection ? ` (baseline ${baselineScale.toFixed(1)}x its ${baselineOneConnection.requestsPerSecond} req/s)` : ''} ${pass_ ? 'PASS' : 'FAIL'}`,
  );
  return {
    name: s.name,
    title: s.title,
    connections,
    service,
    baseline: base,
    ratio: Math.round(ratio * 1000) / 1000,
    targetRatio,
    targetP99Ms,
    lowConcurrency,
    oneConnection,
    scale: Math.round(scale * 100) / 100,
    baselineOneConnection,
    baselineScale: Math.round(baselineScale * 100) / 100,
    targetScaleVsOne: s.scaleVsOne ?? null,
    pass: pass_,
    note: notes.length ? notes.join(', ') : undefined,
  };
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const loadBefore = loadavg()[0];
  log(
    `node ${process.version}, ${cpus().length} CPUs (load ${loadBefore.toFixed(2)}); ${opts.connections} connections, ${opts.warmup} s warm-up + ${opts.duration} s per run`,
  );
  await admin(`CREATE DATABASE ${dbName}`);
  const databaseUrl = dbUrl(dbName);
  log(`created database ${dbName}`);
  await runMigrations({ databaseUrl, databasePoolSize: 1 });

  // The service as deployed: the built API process in production mode. No worker: the measured
  // routes enqueue nothing.
  const apiPort = await freePort();
  const apiBase = `http://127.0.0.1:${apiPort}`;
  const api = track(
    spawn(process.execPath, [...apiNodeArgs, join(ROOT, 'dist/src/main.js')], {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: {
        ...env,
        NODE_ENV: 'production',
        SESSION_SECRET: randomBytes(32).toString('hex'),
        SERVICE_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
        PORT: String(apiPort),
        HOST: '127.0.0.1',
        DATABASE_URL: databaseUrl,
        DATABASE_POOL_SIZE: String(opts.poolSize),
        REDIS_URL: opts.redisUrl,
        QUEUE_PREFIX: queuePrefix,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        MIGRATIONS_RUN: '0',
        AUTH_RATE_LIMIT_PER_MINUTE: '100000',
        INVITATION_RATE_LIMIT_PER_HOUR: '100000',
      },
    }),
    'API',
  );
  await waitForHttp(apiBase, '/health', api, 60_000);
  log(`API up on ${apiBase}`);

  // Seed through the HTTP API.
  const owner = await signup(apiBase, 'owner');
  const org = await call(apiBase, 'POST', '/api/orgs', { cookie: owner.cookie, body: { name: `Bench ${runId}` }, expect: 201 });
  const orgId = org.body.organization.id;
  await pool(
    Array.from({ length: opts.members }, (_, i) => i),
    4,
    async (i) => {
      const u = await signup(apiBase, `member${i}`);
      const inv = await call(apiBase, 'POST', `/api/orgs/${orgId}/members`, { cookie: owner.cookie, body: { email: u.email, role: 'member' }, expect: 201 });
      await call(apiBase, 'POST', `/api/invitations/${inv.body.invitation.id}/accept`, { cookie: u.cookie, expect: 200 });
    },
  );
  const projectIds = [];
  const projectNames = ['Bench Alpha', 'Bench Beta'];
  for (let i = projectNames.length; i < opts.projects; i++) projectNames.push(`Bench Project ${String(i + 1).padStart(2, '0')}`);
  for (const name of projectNames) {
    const p = await call(apiBase, 'POST', `/api/orgs/${orgId}/projects`, { cookie: owner.cookie, body: { name }, expect: 201 });
    projectIds.push(p.body.project.id);
  }
  const agent = await call(apiBase, 'POST', `/api/orgs/${orgId}/agents`, { cookie: owner.cookie, body: { name: 'Bench agent', role: 'member' }, expect: 201 });
  const ctx = {
    orgId,
    projectIds,
    agentKey: agent.body.apiKey,
    agentMemberId: agent.body.agent.member_id ?? agent.body.agent.id,
    memberCount: opts.members + 1,
  };
  if (!/^sk_service_/.test(ctx.agentKey ?? '')) throw new Error('POST /agents did not return an apiKey');
  // the writer of the write scenarios: an organization agent (member) with edit on every project
  const writer = await call(apiBase, 'POST', `/api/orgs/${orgId}/agents`, {
    cookie: owner.cookie,
    body: { name: 'Bench writer', role: 'member' },
    expect: 201,
  });
  ctx.writerKey = writer.body.apiKey;
  ctx.writerMemberId = writer.body.agent.member_id ?? writer.body.agent.id;
  for (const projectId of projectIds)
    await call(apiBase, 'POST', `/api/orgs/${orgId}/projects/${projectId}/members`, {
      cookie: owner.cookie,
      body: { memberId: ctx.writerMemberId, accessLevel: 'edit' },
      expect: 201,
    });
  log(`seeded organization ${orgId}: owner + ${opts.members} members, ${projectIds.length} projects, 1 agent`);
  const t0 = Date.now();
  Object.assign(
    ctx,
    await seedIssues(databaseUrl, {
      orgId,
      projectIds,
      issues: opts.issues,
      graphIssues: Math.min(opts.graphIssues, Math.floor(opts.issues / projectIds.length)),
    }),
  );
  log(
    `bulk-seeded ${ctx.seededIssues} issues over ${projectIds.length} projects (${ctx.liveTotal} not archived) and a ${ctx.dependencyEdges}-edge dependency DAG, VACUUM ANALYZE: ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );

  const t1 = Date.now();
  Object.assign(ctx, await seedStrategy(databaseUrl, { orgId, projectIds, linkedIssues: Math.min(20000, Math.floor(opts.issues / 2)) }));
  const st = ctx.strategy;
  log(
    `bulk-seeded strategy: ${st.goals} goals, ${st.kpis} KPIs, ${st.snapshots} snapshots, ${st.initiatives} initiatives, ${st.linked} linked issues: ${((Date.now() - t1) / 1000).toFixed(1)} s`,
  );
  const t2 = Date.now();
  Object.assign(ctx, await seedArtifacts(databaseUrl, { orgId, detailRef: ctx.detailRef, memberId: ctx.agentMemberId }));
  log(
    `bulk-seeded artifacts: one with ${ctx.artifactRevisions} revisions, ${ctx.manifestSize} linked to ${ctx.detailRef}: ${((Date.now() - t2) / 1000).toFixed(1)} s`,
  );
  const formulaTiming = await timeFormulaRecalculation(databaseUrl, { orgId });
  log(
    `formula KPI recalculation after an issue status change (lock + one UPDATE, own transaction, ${formulaTiming.runs} runs): p50 ${formulaTiming.p50} ms, p99 ${formulaTiming.p99} ms, max ${formulaTiming.max} ms (target < 20 ms)`,
  );

  const basePort = await freePort();
  const baseBase = `http://127.0.0.1:${basePort}`;
  const baselineChild = fork(join(ROOT, 'bench/baseline.mjs'), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...env, BASELINE_PORT: String(basePort), DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: String(opts.poolSize) },
  });
  track(baselineChild, 'baseline');
  await new Promise((res, rej) => {
    baselineChild.once('message', (m) => (m === 'ready' ? res() : rej(new Error(`baseline: unexpected message ${m}`))));
    baselineChild.once('exit', (code) => rej(new Error(`baseline exited (${code}) before listening`)));
  });
  log(`baseline up on ${baseBase}`);

  const results = [];
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    for (const s of scenarios) results.push(await runScenario(s, ctx, { apiBase, baseBase, apiPid: api.child.pid, baselinePid: baselineChild.pid, db }));
  } finally {
    await db.end();
  }

  const leases = runLeases ? await runnerLeases({ env, apiBase, ownerCookie: owner.cookie, orgId, projectId: projectIds[0], databaseUrl, log }) : undefined;

  // what the phases with their own processes (webhook_fanout, heartbeat) get from this run
  const phase = {
    env,
    root: ROOT,
    spawnNode: (name, script, extraEnv, nodeArgs = []) =>
      track(spawn(process.execPath, [...nodeArgs, script], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'], env: { ...env, ...extraEnv } }), name),
    waitForHttp,
    freePort,
    call,
    signup,
    databaseUrl,
    redisUrl: opts.redisUrl,
    queuePrefix,
    dataDir,
    log,
    apiNodeArgs,
  };
  const fanout = runFanout ? await webhookFanout({ ...phase, workerNodeArgs }) : undefined;

  const heartbeat = runHeartbeat ? await heartbeatAgents(phase) : undefined;

  const loadAfter = loadavg()[0];
  if (results.length) console.log(`\n${table(results)}\n`);
  if (heartbeat) console.log(`\nheartbeat (${heartbeat.organization.issues} issues, ${heartbeat.organization.agents} agents):\n${heartbeatTable(heartbeat)}\n`);
  log(`load average (1 min) ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after; ${cpus().length} CPUs`);
  // Both sides share the machine with PostgreSQL and autocannon; other load skews the ratio.
  if (Math.max(loadBefore, loadAfter) > cpus().length)
    log(
      `note: the 1-minute load average was ${loadBefore.toFixed(2)} -> ${loadAfter.toFixed(2)} on ${cpus().length} CPUs; other work on this machine makes the numbers noisy`,
    );
  const report = {
    date: new Date().toISOString(),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model,
    loadAverage1m: { before: Math.round(loadBefore * 100) / 100, after: Math.round(loadAfter * 100) / 100 },
    connections: opts.connections,
    warmupSeconds: opts.warmup,
    durationSeconds: opts.duration,
    poolSize: opts.poolSize,
    members: opts.members,
    projects: opts.projects,
    issues: opts.issues,
    dependencyEdges: ctx.dependencyEdges,
    strategy: ctx.strategy,
    formulaRecalculationMs: formulaTiming,
    targetRatio: opts.targetRatio,
    pass: results.every((r) => r.pass) && (fanout?.pass ?? true) && (leases?.pass ?? true) && (heartbeat?.pass ?? true),
    scenarios: results,
    webhookFanout: fanout,
    runnerLeases: leases,
    heartbeat,
  };
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench/results/latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  log('wrote bench/results/latest.json');
  return report.pass ? 0 : 1;
}

let code = 2;
try {
  code = await main();
} catch (e) {
  console.error(`[bench] failed: ${e?.stack ?? e}`);
} finally {
  await cleanup();
}
process.exit(code);
