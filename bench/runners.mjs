// Runner lease scenario (`runner_leases`, part of `npm run bench`): BENCH_RUNNERS (200) agents, each
// with a connected runner installation and a lease on an issue of its own, refresh their presence
// (every BENCH_RUNNER_REFRESH_MS, 2000: inside the limit of 60 per minute) and renew their lease
// (every BENCH_RUNNER_RENEW_MS, 1000) for BENCH_RUNNER_DURATION seconds (10), while claims race for
// BENCH_CONTESTED (50) issues every runner is assigned to: every BENCH_RUNNER_CLAIM_MS (500) each
// runner tries one contested issue; a winner renews it twice and completes it, freeing it again.
// Each runner's three timers start at their own phases, spread evenly over their periods.
// Measured: client-side latency of lease writes (claims, renewals, completions) and of presence
// refreshes, after a warm-up of BENCH_RUNNER_WARMUP seconds (5) with the same load: the first
// seconds of 200 runners starting at once (new pool connections preparing their statements,
// per-caller caches, JIT) are reported beside the figures, not judged; target: lease writes p99 < 30 ms. During the run and afterwards the database is checked
// for issues with two live leases (target: zero). The load goes through one keep-alive node:http
// agent (bench/http.mjs keepAliveCaller); BENCH_RUNNER_TRACE=<file> writes every measured request
// ([wall-clock start ms, latency ms, kind, status]) there, to line stalls up with other probes.
// BENCH_RUNNER_AGAINST=floor sends the warm-up and measured load (set-up still goes through the
// service) to bench/lease-floor.mjs instead: plain node:http + pg with the same statements on the
// same database, the floor of these writes on this machine (reported, marked `against: "floor"`).
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { keepAliveCaller } from './http.mjs';

/** The fractional part of the golden ratio: i * GOLDEN mod 1 spreads any number of runners evenly over [0, 1). */
const GOLDEN = 0.6180339887498949;
const num = (v, d) => (v === undefined || v === '' ? d : Number(v));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] * 10) / 10 : null;
};

/** Inserts `n` issues of project `projectId` (numbered through the project's counter) and answers their ids. */
async function insertIssues(client, orgId, projectId, n, title) {
  const { rows } = await client.query('UPDATE projects SET issue_seq = issue_seq + $3 WHERE org_id = $1 AND id = $2 RETURNING issue_seq', [
    orgId,
    projectId,
    n,
  ]);
  const last = rows[0].issue_seq;
  const ids = Array.from({ length: n }, () => randomUUID());
  await client.query(
    `INSERT INTO issues (org_id, id, project_id, number, title, status)
     SELECT $1::uuid, id, $2::uuid, $3::int - $4::int + ord::int, $5::text || ' ' || ord, 'todo' FROM unnest($6::uuid[]) WITH ORDINALITY AS t(id, ord)`,
    [orgId, projectId, last, n, title, ids],
  );
  return ids;
}

/** Forks the floor server (bench/lease-floor.mjs) on `databaseUrl`; answers its base URL and a stop function. */
async function startFloor(env, databaseUrl) {
  const { fork } = await import('node:child_process');
  const child = fork(new URL('./lease-floor.mjs', import.meta.url).pathname, [], {
    env: { ...env, DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: String(num(env.BENCH_POOL_SIZE, 20)) },
  });
  // the server listens on a port the kernel chose and names it once it holds it
  const { port } = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`the floor server exited (${code})`)));
  });
  return { base: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

export async function runnerLeases({ env, apiBase, ownerCookie, orgId, projectId, databaseUrl, log }) {
  const { Client } = await import('pg');
  const against = env.BENCH_RUNNER_AGAINST === 'floor' ? 'floor' : 'service';
  let floor = null;
  const o = {
    runners: num(env.BENCH_RUNNERS, 200),
    contested: num(env.BENCH_CONTESTED, 50),
    duration: num(env.BENCH_RUNNER_DURATION, 10),
    warmup: num(env.BENCH_RUNNER_WARMUP, 5),
    refreshMs: num(env.BENCH_RUNNER_REFRESH_MS, 2000),
    renewMs: num(env.BENCH_RUNNER_RENEW_MS, 1000),
    claimMs: num(env.BENCH_RUNNER_CLAIM_MS, 500),
    p99TargetMs: 30,
  };
  // one keep-alive node:http agent for setup and load (fetch cost the load generator, which shares
  // the two cores with the service, about twice the CPU per request)
  const call = keepAliveCaller();
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    // agents (project-scoped: edit on the bench project), created through the API
    const agents = [];
    for (let i = 0; i < o.runners; i += 10) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(10, o.runners - i) }, (_, k) =>
          call(apiBase, 'POST', `/api/orgs/${orgId}/agents`, {
            cookie: ownerCookie,
            body: { name: `Runner agent ${i + k}`, projectIds: [projectId] },
            expect: 201,
          }),
        ),
      );
      for (const r of batch) agents.push({ key: r.body.apiKey, memberId: r.body.agent.member_id ?? r.body.agent.id });
    }
    const own = await insertIssues(db, orgId, projectId, o.runners, 'Runner own issue');
    const contested = await insertIssues(db, orgId, projectId, o.contested, 'Contested issue');
    await db.query(`UPDATE issues SET assignee_id = a.m FROM unnest($2::uuid[], $3::uuid[]) AS a(i, m) WHERE org_id = $1 AND id = a.i`, [
      orgId,
      own,
      agents.map((a) => a.memberId),
    ]);
    await db.query(
      `INSERT INTO issue_assignees (org_id, issue_id, member_id, position) SELECT $1, i, m, 0 FROM unnest($2::uuid[]) AS i CROSS JOIN unnest($3::uuid[]) AS m`,
      [orgId, contested, agents.map((a) => a.memberId)],
    );
    log(`runner_leases: ${agents.length} agents, ${own.length} own issues, ${contested.length} contested issues (every agent assigned)`);

    const h = (a) => ({ authorization: `Bearer ${a.key}` });
    const runners = agents.map((a, i) => ({ ...a, instanceId: randomUUID(), own: own[i], lease: null, contest: null }));
    // register and claim the own issue
    for (let i = 0; i < runners.length; i += 20) {
      await Promise.all(
        runners.slice(i, i + 20).map(async (r) => {
          await call(apiBase, 'PUT', `/api/orgs/${orgId}/runners/self`, {
            headers: h(r),
            body: { runner: { instanceId: r.instanceId, platform: 'linux', arch: 'x64', capabilities: ['codex', 'git'], clientVersion: '1.0.0' } },
            expect: 201,
          });
          const c = await call(apiBase, 'POST', `/api/orgs/${orgId}/runner-leases/claim`, {
            headers: h(r),
            body: { issueId: r.own, idempotencyKey: randomUUID() },
            expect: 201,
          });
          r.lease = { id: c.body.lease.id, token: c.body.token, gen: c.body.lease.claim_generation, seq: 0 };
        }),
      );
    }

    // unloaded pass: one runner, sequential renewals (the request's own cost, without queueing)
    const solo = [];
    {
      const r = runners[0];
      for (let k = 0; k < 100; k++) {
        const t0 = performance.now();
        const res = await call(apiBase, 'PATCH', `/api/orgs/${orgId}/runner-leases/${r.lease.id}`, {
          headers: h(r),
          body: { token: r.lease.token, claimGeneration: r.lease.gen, sequence: r.lease.seq + 1, mutationId: randomUUID(), transition: 'renew' },
        });
        solo.push(performance.now() - t0);
        if (res.status === 200) r.lease.seq++;
      }
    }

    // the load's target: the service, or the floor server (BENCH_RUNNER_AGAINST=floor)
    let loadBase = apiBase;
    if (against === 'floor') {
      floor = await startFloor(env, databaseUrl);
      loadBase = floor.base;
      log(`runner_leases: load against the floor server (bench/lease-floor.mjs) at ${loadBase}`);
    }
    const lat = { write: [], claim: [], renew: [], complete: [], presence: [] };
    // the warm-up's lease writes (200 runners starting at once: new pool connections preparing their
    // statements, per-caller caches, JIT): reported beside the measured window, not in it
    const cold = [];
    // every measured request as [wall-clock start ms, latency ms, kind, status] (BENCH_RUNNER_TRACE=file writes it)
    const trace = [];
    let measureFrom = Infinity;
    const counts = { claims: 0, claimWins: 0, claimConflicts: 0, renewals: 0, completions: 0, refreshes: 0, non2xx: 0, errors: 0 };
    let doubleLeasesDuringRun = 0;
    const timed = async (kind, fn) => {
      const t0 = performance.now();
      try {
        const res = await fn();
        const ms = performance.now() - t0;
        if (t0 < measureFrom) {
          if (kind !== 'presence') cold.push(ms);
          return res;
        }
        lat[kind].push(ms);
        trace.push([performance.timeOrigin + t0, ms, kind, res.status]);
        if (kind !== 'presence') lat.write.push(ms);
        return res;
      } catch (e) {
        counts.errors++;
        throw e;
      }
    };
    const write = (r, l, transition) =>
      call(loadBase, 'PATCH', `/api/orgs/${orgId}/runner-leases/${l.id}`, {
        headers: h(r),
        body: { token: l.token, claimGeneration: l.gen, sequence: l.seq + 1, mutationId: randomUUID(), transition },
      });
    const until = Date.now() + (o.warmup + o.duration) * 1000;
    measureFrom = performance.now() + o.warmup * 1000;
    const loops = runners.map(async (r, i) => {
      // each timer starts at its own phase, spread evenly over its own period (independent runners
      // renew at any point of the second). Until 2026-11-25 every timer started after one offset
      // spread over min(renew, claim) = 500 ms, and the renewals fell in the first half of each second.
      const start = Date.now();
      const phase = (period, k) => Math.floor(((i * GOLDEN + k / 3) % 1) * period);
      let nextRenew = start + phase(o.renewMs, 0);
      let nextClaim = start + phase(o.claimMs, 1);
      let nextRefresh = start + phase(o.refreshMs, 2);
      while (Date.now() < until) {
        const now = Date.now();
        if (now >= nextRefresh) {
          nextRefresh = now + o.refreshMs;
          const res = await timed('presence', () =>
            call(loadBase, 'PUT', `/api/orgs/${orgId}/runners/self`, {
              headers: h(r),
              body: { runner: { instanceId: r.instanceId, platform: 'linux', arch: 'x64', capabilities: ['codex', 'git'], clientVersion: '1.0.0' } },
            }),
          );
          counts.refreshes++;
          if (res.status !== 200) counts.non2xx++;
        } else if (now >= nextRenew) {
          nextRenew = now + o.renewMs;
          const res = await timed('renew', () => write(r, r.lease, 'renew'));
          counts.renewals++;
          if (res.status === 200) r.lease.seq++;
          else counts.non2xx++;
        } else if (now >= nextClaim) {
          nextClaim = now + o.claimMs;
          if (r.contest) {
            // a winner renews twice, then completes (the issue is free again)
            const done = r.contest.renewals >= 2;
            const res = await timed(done ? 'complete' : 'renew', () => write(r, r.contest, done ? 'completed' : 'renew'));
            if (res.status !== 200) {
              counts.non2xx++;
              r.contest = null;
            } else if (done) {
              counts.completions++;
              r.contest = null;
            } else {
              r.contest.seq++;
              r.contest.renewals++;
              counts.renewals++;
            }
          } else {
            const issueId = contested[Math.floor(Math.random() * contested.length)];
            const res = await timed('claim', () =>
              call(loadBase, 'POST', `/api/orgs/${orgId}/runner-leases/claim`, { headers: h(r), body: { issueId, idempotencyKey: randomUUID() } }),
            );
            counts.claims++;
            if (res.status === 201) {
              counts.claimWins++;
              r.contest = { id: res.body.lease.id, token: res.body.token, gen: res.body.lease.claim_generation, seq: 0, renewals: 0 };
            } else if (res.status === 409 && ['RUNNER_LEASE_HELD'].includes(res.body?.code)) counts.claimConflicts++;
            else counts.non2xx++;
          }
        } else {
          await sleep(Math.max(1, Math.min(nextRefresh, nextRenew, nextClaim) - now));
        }
      }
    });
    const checker = (async () => {
      while (Date.now() < until) {
        const { rows } = await db.query(
          `SELECT count(*)::int AS n FROM (SELECT issue_id FROM runner_leases WHERE org_id = $1 AND state IN ('active', 'uncertain') GROUP BY issue_id HAVING count(*) > 1) d`,
          [orgId],
        );
        doubleLeasesDuringRun += rows[0].n;
        await sleep(250);
      }
    })();
    const t0 = Date.now();
    await Promise.all([...loops, checker]);
    const seconds = (Date.now() - t0) / 1000 - o.warmup; // the measured window
    if (env.BENCH_RUNNER_TRACE) writeFileSync(env.BENCH_RUNNER_TRACE, JSON.stringify(trace));
    const { rows } = await db.query(
      `SELECT count(*)::int AS n FROM (SELECT issue_id FROM runner_leases WHERE org_id = $1 AND state IN ('active', 'uncertain') GROUP BY issue_id HAVING count(*) > 1) d`,
      [orgId],
    );
    const { rows: gens } = await db.query(
      `SELECT count(*)::int AS n FROM (SELECT issue_id, claim_generation FROM runner_leases WHERE org_id = $1 GROUP BY 1, 2 HAVING count(*) > 1) d`,
      [orgId],
    );
    const summary = (xs) => ({ count: xs.length, p50: pct(xs, 50), p90: pct(xs, 90), p99: pct(xs, 99), max: pct(xs, 100) });
    const result = {
      against,
      runners: runners.length,
      contestedIssues: contested.length,
      seconds: Math.round(seconds * 10) / 10,
      requestsPerSecond: Math.round((lat.write.length + lat.presence.length) / seconds),
      counts,
      latencyMs: {
        unloadedRenewals: summary(solo),
        warmupLeaseWrites: summary(cold),
        leaseWrites: summary(lat.write),
        claims: summary(lat.claim),
        renewals: summary(lat.renew),
        completions: summary(lat.complete),
        presence: summary(lat.presence),
      },
      doubleLiveLeases: { duringRun: doubleLeasesDuringRun, afterwards: rows[0].n, duplicateGenerations: gens[0].n },
      targetP99Ms: o.p99TargetMs,
    };
    result.pass =
      result.latencyMs.leaseWrites.p99 !== null &&
      result.latencyMs.leaseWrites.p99 < o.p99TargetMs &&
      doubleLeasesDuringRun === 0 &&
      rows[0].n === 0 &&
      gens[0].n === 0 &&
      counts.errors === 0;
    log(
      `runner_leases${against === 'floor' ? ' (against the floor server)' : ''}: ${result.requestsPerSecond} req/s over ${result.seconds} s; lease writes p50 ${result.latencyMs.leaseWrites.p50} ms, p99 ${result.latencyMs.leaseWrites.p99} ms (target < ${o.p99TargetMs}); one runner alone: renew p50 ${result.latencyMs.unloadedRenewals.p50} ms, p99 ${result.latencyMs.unloadedRenewals.p99} ms; during the ${o.warmup} s warm-up (not judged) lease writes p50 ${result.latencyMs.warmupLeaseWrites.p50} ms, p99 ${result.latencyMs.warmupLeaseWrites.p99} ms; presence p99 ${result.latencyMs.presence.p99} ms; claims ${counts.claims} (${counts.claimWins} won, ${counts.claimConflicts} RUNNER_LEASE_HELD); double live leases ${doubleLeasesDuringRun} during, ${rows[0].n} after; ${result.pass ? 'PASS' : 'FAIL'}`,
    );
    return result;
  } finally {
    floor?.stop();
    await db.end();
  }
}
