// Benchmark scenarios: one entry per measured request. run.mjs measures each one against the
// service and against the minimal baseline (baseline.mjs), which answers the same request with a
// plain node:http handler doing the same database work (the same named prepared statements as the service). To add a scenario, append an entry:
//
//   name      short id (also the baseline server's path: /<name>)
//   title     what is measured, for the table
//   path      (ctx) => the service path; ctx is what run.mjs seeded: { orgId, projectIds, agentKey,
//             agentMemberId, ownerMemberId, memberCount }
//   headers   (ctx) => request headers (the same for the service and the baseline)
//   verify    (status, body, ctx) => error message or null; checked once against both servers
//             before measuring, so a scenario never measures 401s or 404s
//   baseline  async ({ pool, principal, url }) => body: the same work with raw SQL; principal is the
//             agent the bearer key resolved to (authenticateKey below), null answers 401
import { createHash } from 'node:crypto';

export const API_KEY_LOOKUP = `SELECT k.id, k.org_id, k.member_id, m.role, m.display_name, m.agent_scope, m.owner_member_id
  FROM api_keys k JOIN members m ON m.org_id = k.org_id AND m.id = k.member_id
 WHERE k.key_hash = $1 AND k.revoked_at IS NULL AND m.removed_at IS NULL AND m.type = 'agent'`;

/** The baseline's authentication: the same indexed lookup on sha256(key) as the service. */
export async function authenticateKey(pool, authorization) {
  const m = /^Bearer (sk_service_[A-Za-z0-9_-]{20,200})$/.exec(authorization ?? '');
  if (!m) return null;
  const { rows } = await pool.query({ name: 'b-key', text: API_KEY_LOOKUP, values: [createHash('sha256').update(m[1], 'utf8').digest()] });
  return rows[0] ?? null;
}

const bearerHeaders = (ctx) => ({ authorization: `Bearer ${ctx.agentKey}` });

export const scenarios = [
  {
    name: 'auth-me',
    title: 'GET /api/auth/me (agent bearer key)',
    path: () => '/api/auth/me',
    headers: bearerHeaders,
    verify: (status, body, ctx) => {
      if (status !== 200) return `expected 200, got ${status}`;
      if (body?.auth?.type !== 'agent') return 'auth.type is not agent';
      if (body.auth.orgId !== ctx.orgId) return 'auth.orgId is not the seeded organization';
      return null;
    },
    async baseline({ pool, principal }) {
      // Only the role's org-wide level (the service also reads explicit project/team grants: one
      // more query that this baseline, as specified, leaves out).
      const { rows } = await pool.query({ name: 'b-projects', text: 'SELECT id FROM projects WHERE org_id = $1 ORDER BY created_at, id', values: [principal.org_id] });
      const level = principal.role === 'owner' || principal.role === 'admin' ? 'admin' : 'view';
      const projectAccess = principal.role === 'guest' ? [] : rows.map((r) => ({ projectId: r.id, accessLevel: level }));
      return {
        auth: {
          type: 'agent',
          userId: null,
          orgId: principal.org_id,
          role: principal.role,
          memberId: principal.member_id,
          displayName: principal.display_name,
          agentId: principal.member_id,
          memberType: 'agent',
          agentScope: principal.agent_scope,
          scopes: [],
          projectAccess,
        },
      };
    },
  },
  {
    name: 'members-page',
    title: 'GET /api/orgs/:id/members?shape=envelope&limit=25 (agent bearer key)',
    path: (ctx) => `/api/orgs/${ctx.orgId}/members?shape=envelope&limit=25`,
    headers: bearerHeaders,
    verify: (status, body, ctx) => {
      if (status !== 200) return `expected 200, got ${status}`;
      if (!Array.isArray(body?.items)) return 'no items array (envelope shape expected)';
      if (body.items.length !== 25) return `expected 25 items, got ${body.items.length}`;
      if (typeof body.total !== 'number' || body.total < ctx.memberCount) return `total ${body.total} is below the ${ctx.memberCount} seeded members`;
      return null;
    },
    async baseline({ pool, principal }) {
      const where = `org_id = $1 AND removed_at IS NULL AND role <> 'guest'`;
      const [page, count] = await Promise.all([
        pool.query({ name: 'b-dir', text: `SELECT id, display_name, type, role, avatar_url FROM members WHERE ${where} ORDER BY lower(display_name), id LIMIT 25 OFFSET 0`, values: [principal.org_id] }),
        pool.query({ name: 'b-dir-count', text: `SELECT count(*)::int AS n FROM members WHERE ${where}`, values: [principal.org_id] }),
      ]);
      const items = page.rows.map((r) => ({ id: r.id, display_name: r.display_name, type: r.type, role: r.role, avatar_url: r.avatar_url }));
      const total = count.rows[0].n;
      const nextOffset = items.length < total ? items.length : null;
      return {
        resource: 'members',
        items,
        total,
        limit: 25,
        offset: 0,
        nextOffset,
        truncated: nextOffset !== null,
        hint: nextOffset !== null ? `Showing ${items.length} of ${total}; request offset=${nextOffset} for more.` : null,
      };
    },
  },
];
