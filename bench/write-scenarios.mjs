// Write scenarios (issue 12, "Writes that scale with concurrency"): many agents writing to one
// organization at once. An organization agent ("Bench writer", role member, `edit` on every
// project through explicit grants) writes to the bench organization at BENCH_WRITE_CONNECTIONS (20)
// connections; each scenario also runs at 1 connection (its own single-client throughput).
//
// Every scenario has a baseline (baseline.mjs): node:http + pg doing the same inserts and updates,
// with the same triggers, in one transaction per request (the credential lookup, BEGIN, the rows'
// statements, COMMIT): what a write of these rows costs here at the least.
//
// Fixtures (setup): 1,000 issues over the write projects created by the writer itself and
// unassigned, the targets of updates and comments (no notification rows: the writer is their
// creator and nobody is assigned; both sides write the same rows). After every measured pass,
// `reset` deletes what the pass wrote (issues created, comments, timeline entries; counters back
// to their value before), so no pass inherits a larger table from the previous one and the read
// scenarios before them never see these rows.
//
// A request's target and body come from `k`, a counter over all requests of the run (service,
// baseline and 1-connection passes continue it): creates rotate over the projects, updates and
// comments over the 1,000 targets, and an update always changes status and priority (successive
// visits of one target alternate).
import { randomUUID } from 'node:crypto';

const WRITE_P99_MS = 100;
const WRITE_RATIO = 0.35;
const SCALE_VS_ONE = 3;
const TARGETS = 1000;
const TITLE = 'bench write';

const env = process.env;
const num = (v, d) => (v === undefined || v === '' ? d : Number(v));
export const writeConnections = num(env.BENCH_WRITE_CONNECTIONS, 20);
/** Projects the writes spread over (1 = every create in one project). */
const writeProjects = (ctx) => ctx.projectIds.slice(0, Math.max(1, Math.min(ctx.projectIds.length, num(env.BENCH_WRITE_PROJECTS, ctx.projectIds.length))));

const writerHeaders = (ctx) => ({ authorization: `Bearer ${ctx.writerKey}`, 'content-type': 'application/json' });

/** The timeline entry both sides write: the actor snapshot as the service stores it. */
const actorOf = (principal) => ({ id: principal.member_id, display_name: principal.display_name, type: 'agent', avatar_url: principal.avatar_url ?? null });

/** The counter row moves by `n` and stays locked until commit (gap-free numbers): the first of the `n` new numbers. */
const NEXT_NUMBERS = 'UPDATE projects SET issue_seq = issue_seq + $3 WHERE org_id = $1 AND id = $2 RETURNING issue_seq - $3 + 1 AS first';

/** Runs `fn` in one transaction on a pooled client. */
export async function inTx(pool, fn) {
  const c = await pool.connect();
  try {
    await c.query('BEGIN');
    const out = await fn(c);
    await c.query('COMMIT');
    return out;
  } catch (e) {
    await c.query('ROLLBACK').catch(() => {});
    throw e;
  } finally {
    c.release();
  }
}

/** Inserts issues of one project numbered from `first`, and their `issue.created` entries; answers the rows. */
async function insertIssues(c, principal, projectId, titles, first) {
  const now = new Date();
  const ids = titles.map(() => randomUUID());
  const { rows } = await c.query({
    name: 'bw-insert-issues',
    text: `INSERT INTO issues (org_id, id, project_id, number, title, status, priority, created_by_member_id, created_at, updated_at)
           SELECT $1, t.id, $2, $3 + t.n - 1, t.title, 'backlog', 2, $4, $5, $5 FROM unnest($6::uuid[], $7::text[]) WITH ORDINALITY AS t(id, title, n)
           RETURNING id, number, title, status, priority, project_id, created_at`,
    values: [principal.org_id, projectId, first, principal.member_id, now, ids, titles],
  });
  const actor = actorOf(principal);
  await c.query({
    name: 'bw-insert-created-activity',
    text: `INSERT INTO activity_events (org_id, id, issue_id, project_id, actor_member_id, action, metadata, created_at)
           SELECT $1, gen_random_uuid(), r.id, $2, $3, 'issue.created', jsonb_build_object('number', r.number, 'title', r.title, 'actor', $4::jsonb), $5
             FROM unnest($6::uuid[], $7::int[], $8::text[]) AS r(id, number, title)`,
    values: [
      principal.org_id,
      projectId,
      principal.member_id,
      JSON.stringify(actor),
      now,
      rows.map((r) => r.id),
      rows.map((r) => r.number),
      rows.map((r) => r.title),
    ],
  });
  return rows;
}

/** Setup shared by the write scenarios: the update/comment targets, and the counters to come back to. */
async function writeFixtures(ctx, client) {
  if (ctx.writeTargets) return;
  const projects = writeProjects(ctx);
  const { rows } = await client.query(
    `WITH p AS (SELECT id, issue_seq FROM projects WHERE org_id = $1 AND id = ANY($2::uuid[]))
     INSERT INTO issues (org_id, id, project_id, number, title, status, priority, created_by_member_id)
     SELECT $1, gen_random_uuid(), p.id, p.issue_seq + g, 'bench target ' || p.id || ' ' || g, 'todo', 2, $3
       FROM p CROSS JOIN generate_series(1, $4::int) g
     RETURNING id`,
    [ctx.orgId, projects, ctx.writerMemberId, Math.ceil(TARGETS / projects.length)],
  );
  await client.query(
    `UPDATE projects p SET issue_seq = s.n FROM (SELECT project_id, max(number) AS n FROM issues WHERE org_id = $1 GROUP BY project_id) s
      WHERE p.org_id = $1 AND p.id = s.project_id`,
    [ctx.orgId],
  );
  ctx.writeTargets = rows.map((r) => r.id).slice(0, TARGETS);
  ctx.writeCounters = (await client.query('SELECT id, issue_seq FROM projects WHERE org_id = $1', [ctx.orgId])).rows;
  await client.query('VACUUM ANALYZE issues, projects');
}

/** What every pass leaves behind goes: its issues, comments and timeline entries; counters as before. */
async function resetWrites(ctx, client, since) {
  await client.query(`DELETE FROM issues WHERE org_id = $1 AND title LIKE '${TITLE} %'`, [ctx.orgId]);
  await client.query('DELETE FROM comments WHERE org_id = $1 AND issue_id = ANY($2::uuid[]) AND created_at >= $3', [ctx.orgId, ctx.writeTargets, since]);
  await client.query('DELETE FROM activity_events WHERE org_id = $1 AND issue_id = ANY($2::uuid[]) AND created_at >= $3', [ctx.orgId, ctx.writeTargets, since]);
  await client.query('DELETE FROM notifications WHERE org_id = $1 AND created_at >= $2', [ctx.orgId, since]);
  await client.query(`UPDATE projects p SET issue_seq = c.n FROM unnest($2::uuid[], $3::int[]) AS c(id, n) WHERE p.org_id = $1 AND p.id = c.id`, [
    ctx.orgId,
    ctx.writeCounters.map((r) => r.id),
    ctx.writeCounters.map((r) => r.issue_seq),
  ]);
  await client.query('VACUUM ANALYZE issues, comments, activity_events, notifications, issue_counts, data_versions, projects');
}

const target = (ctx, k) => ctx.writeTargets[k % ctx.writeTargets.length];
const projectOf = (ctx, k) => {
  const p = writeProjects(ctx);
  return p[k % p.length];
};
/** Successive visits of one target alternate, so every update changes both fields. */
const updateOf = (ctx, k) => {
  const visit = Math.floor(k / ctx.writeTargets.length);
  return { status: visit % 2 ? 'todo' : 'in_progress', priority: visit % 2 ? 1 : 3 };
};

const writeScenario = (s) => ({
  write: true,
  connections: writeConnections,
  ratio: WRITE_RATIO,
  p99: WRITE_P99_MS,
  scaleVsOne: SCALE_VS_ONE,
  headers: writerHeaders,
  setup: writeFixtures,
  reset: resetWrites,
  ...s,
});

export const writeScenarios = [
  writeScenario({
    name: 'issue_create',
    title: 'POST /api/orgs/:id/issues (per-project number; over the write projects)',
    method: 'POST',
    path: (ctx) => `/api/orgs/${ctx.orgId}/issues`,
    body: (ctx, k) => ({ projectId: projectOf(ctx, k), title: `${TITLE} ${k}` }),
    verify: (status, body) => (status !== 201 ? `expected 201, got ${status}` : typeof body?.issue?.number !== 'number' ? 'no issue number' : null),
    async baseline({ pool, principal, body }) {
      const [issue] = await inTx(pool, async (c) => {
        const { rows } = await c.query({ name: 'bw-next-number', text: NEXT_NUMBERS, values: [principal.org_id, body.projectId, 1] });
        if (!rows.length) throw new Error('project not found');
        return insertIssues(c, principal, body.projectId, [body.title], rows[0].first);
      });
      return { issue };
    },
  }),
  writeScenario({
    name: 'issue_update',
    title: 'PATCH /api/orgs/:id/issues/:id { status, priority } (1,000 issues)',
    method: 'PATCH',
    path: (ctx, k) => `/api/orgs/${ctx.orgId}/issues/${target(ctx, k)}`,
    baselineQuery: (ctx, k) => ({ issue: target(ctx, k) }),
    body: updateOf,
    verify: (status, body) => (status !== 200 ? `expected 200, got ${status}` : !body?.issue?.status ? 'no issue' : null),
    async baseline({ pool, principal, url, body }) {
      const issueId = url.searchParams.get('issue');
      const issue = await inTx(pool, async (c) => {
        const { rows } = await c.query({
          name: 'bw-update',
          text: `UPDATE issues i SET status = $3, priority = $4, updated_at = now() FROM (SELECT status FROM issues WHERE org_id = $1 AND id = $2 FOR NO KEY UPDATE) o
                  WHERE i.org_id = $1 AND i.id = $2 RETURNING i.id, i.number, i.title, i.status, i.priority, i.project_id, i.updated_at, o.status AS from_status`,
          values: [principal.org_id, issueId, body.status, body.priority],
        });
        if (!rows.length) throw new Error('issue not found');
        const r = rows[0];
        await c.query({
          name: 'bw-updated-activity',
          text: `INSERT INTO activity_events (org_id, id, issue_id, project_id, actor_member_id, action, metadata, created_at)
                 VALUES ($1, gen_random_uuid(), $2, $3, $4, 'issue.updated', $5::jsonb, now())`,
          values: [
            principal.org_id,
            r.id,
            r.project_id,
            principal.member_id,
            JSON.stringify({ changed_fields: ['priority', 'status'], from_status: r.from_status, to_status: r.status, actor: actorOf(principal) }),
          ],
        });
        return r;
      });
      return { issue };
    },
  }),
  writeScenario({
    name: 'comment_create',
    title: 'POST /api/orgs/:id/issues/:id/comments (1,000 issues)',
    method: 'POST',
    path: (ctx, k) => `/api/orgs/${ctx.orgId}/issues/${target(ctx, k)}/comments`,
    baselineQuery: (ctx, k) => ({ issue: target(ctx, k) }),
    body: (ctx, k) => ({ body: `bench comment ${k}: the agent reports progress on this issue.` }),
    verify: (status, body) => (status !== 201 ? `expected 201, got ${status}` : !body?.comment?.id ? 'no comment' : null),
    async baseline({ pool, principal, url, body }) {
      const issueId = url.searchParams.get('issue');
      const comment = await inTx(pool, async (c) => {
        const id = randomUUID();
        const { rows } = await c.query({
          name: 'bw-comment',
          text: `INSERT INTO comments (org_id, id, issue_id, author_type, author_member_id, body, created_at, updated_at)
                 SELECT $1, $2, i.id, 'member', $4, $5, now(), now() FROM issues i WHERE i.org_id = $1 AND i.id = $3
                 RETURNING id, issue_id, body, created_at, (SELECT project_id FROM issues WHERE org_id = $1 AND id = $3) AS project_id`,
          values: [principal.org_id, id, issueId, principal.member_id, `<p>${body.body}</p>`],
        });
        if (!rows.length) throw new Error('issue not found');
        await c.query({
          name: 'bw-comment-activity',
          text: `INSERT INTO activity_events (org_id, id, issue_id, project_id, actor_member_id, action, metadata, created_at)
                 VALUES ($1, gen_random_uuid(), $2, $3, $4, 'comment.created', $5::jsonb, now())`,
          values: [
            principal.org_id,
            issueId,
            rows[0].project_id,
            principal.member_id,
            JSON.stringify({ comment_id: id, reply_to_comment_id: null, mention_count: 0, actor: actorOf(principal) }),
          ],
        });
        return rows[0];
      });
      return { comment };
    },
  }),
  writeScenario({
    name: 'bulk_create_50',
    title: 'POST /api/orgs/:id/issues/bulk (50 issues of one project per request)',
    method: 'POST',
    path: (ctx) => `/api/orgs/${ctx.orgId}/issues/bulk`,
    body: (ctx, k) => {
      const projectId = projectOf(ctx, k);
      return { issues: Array.from({ length: 50 }, (_, n) => ({ projectId, title: `${TITLE} ${k}.${n}` })) };
    },
    verify: (status, body) => (status !== 201 ? `expected 201, got ${status}` : body?.count !== 50 ? `count ${body?.count}` : null),
    async baseline({ pool, principal, body }) {
      const projectId = body.issues[0].projectId;
      const issues = await inTx(pool, async (c) => {
        const { rows } = await c.query({ name: 'bw-next-number', text: NEXT_NUMBERS, values: [principal.org_id, projectId, body.issues.length] });
        if (!rows.length) throw new Error('project not found');
        return insertIssues(
          c,
          principal,
          projectId,
          body.issues.map((i) => i.title),
          rows[0].first,
        );
      });
      return { issues, count: issues.length };
    },
  }),
];
