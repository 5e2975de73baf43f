import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { newApiKey } from '../../common/auth/tokens';
import { Errors } from '../../common/errors/domain-error';
import type { AgentRow, KeyRow, MintedKey, ProjectSummary } from './agent.types';

/** Which active agents of an organization to read. */
export type AgentFilter =
  | { kind: 'all' }
  | { kind: 'one'; agentId: string }
  | { kind: 'ids'; ids: string[] }
  /** Agents the member created or personally owns. */
  | { kind: 'createdOrOwnedBy'; memberId: string };

/** At most this many active keys per agent (minting more is a 409). */
export const MAX_ACTIVE_KEYS_PER_AGENT = 20;

const AGENT_SELECT = `
  SELECT m.id, m.role, m.display_name, m.avatar_url, m.agent_scope, m.owner_member_id,
         o.display_name AS owner_display_name, m.created_by_member_id, m.created_at,
         COALESCE((SELECT array_agg(pm.project_id::text ORDER BY pm.created_at, pm.project_id)
                     FROM project_members pm WHERE pm.org_id = m.org_id AND pm.member_id = m.id), '{}'::text[]) AS project_ids,
         k.key_prefix, k.last_used_at AS key_last_used_at,
         (SELECT max(a.last_used_at) FROM api_keys a
           WHERE a.org_id = m.org_id AND a.member_id = m.id AND a.revoked_at IS NULL) AS activity_last_used_at
    FROM members m
    LEFT JOIN members o ON o.org_id = m.org_id AND o.id = m.owner_member_id AND o.removed_at IS NULL
    LEFT JOIN LATERAL (
      SELECT s.key_prefix, s.last_used_at FROM api_keys s
       WHERE s.org_id = m.org_id AND s.member_id = m.id AND s.revoked_at IS NULL
       ORDER BY s.created_at DESC, s.id DESC LIMIT 1) k ON true
   WHERE m.org_id = $1 AND m.type = 'agent' AND m.removed_at IS NULL`;

function filterSql(filter: AgentFilter): { sql: string; params: unknown[] } {
  switch (filter.kind) {
    case 'all':
      return { sql: '', params: [] };
    case 'one':
      return { sql: ' AND m.id = $2', params: [filter.agentId] };
    case 'ids':
      return { sql: ' AND m.id = ANY($2::uuid[])', params: [filter.ids] };
    case 'createdOrOwnedBy':
      return { sql: ' AND (m.created_by_member_id = $2 OR m.owner_member_id = $2)', params: [filter.memberId] };
  }
}

/** SQL reads and writes of agents (member rows of type `agent`) and their API keys. Every query filters by org_id. */
@Injectable()
export class AgentStore {
  constructor(private readonly db: DataSource) {}

  /** Active agents in creation order, optionally one page of them. */
  async find(orgId: string, filter: AgentFilter, page?: { limit: number; offset: number }, manager: EntityManager = this.db.manager): Promise<AgentRow[]> {
    const f = filterSql(filter);
    const params: unknown[] = [orgId, ...f.params];
    let sql = `${AGENT_SELECT}${f.sql} ORDER BY m.created_at, m.id`;
    if (page) {
      params.push(page.limit, page.offset);
      sql += ` LIMIT $${params.length - 1} OFFSET $${params.length}`;
    }
    return manager.query(sql, params);
  }

  async count(orgId: string, filter: AgentFilter): Promise<number> {
    const f = filterSql(filter);
    const rows: Array<{ n: number }> = await this.db.query(
      `SELECT count(*)::int AS n FROM members m WHERE m.org_id = $1 AND m.type = 'agent' AND m.removed_at IS NULL${f.sql}`,
      [orgId, ...f.params],
    );
    return rows[0]?.n ?? 0;
  }

  async findOne(orgId: string, agentId: string, manager: EntityManager = this.db.manager): Promise<AgentRow | null> {
    const rows = await this.find(orgId, { kind: 'one', agentId }, undefined, manager);
    return rows[0] ?? null;
  }

  /** Locks the agent's member row for the rest of the transaction; 404 when it is not an active agent. */
  async lock(manager: EntityManager, orgId: string, agentId: string): Promise<void> {
    const rows: unknown[] = await manager.query(
      `SELECT 1 FROM members WHERE org_id = $1 AND id = $2 AND type = 'agent' AND removed_at IS NULL FOR UPDATE`,
      [orgId, agentId],
    );
    if (!rows.length) throw Errors.notFound('Agent not found');
  }

  /** Mints a key: only its SHA-256 hash and display prefix are stored; the full key is returned once. */
  async mintKey(manager: EntityManager, orgId: string, agentId: string, createdByMemberId: string): Promise<MintedKey> {
    const { key, hash, prefix } = newApiKey();
    const id = randomUUID();
    const rows: Array<{ created_at: Date }> = await manager.query(
      `INSERT INTO api_keys (org_id, id, member_id, key_hash, key_prefix, created_by_member_id)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING created_at`,
      [orgId, id, agentId, hash, prefix, createdByMemberId],
    );
    return { id, key, prefix, createdAt: rows[0].created_at };
  }

  async activeKeyCount(manager: EntityManager, orgId: string, agentId: string): Promise<number> {
    const rows: Array<{ n: number }> = await manager.query(
      'SELECT count(*)::int AS n FROM api_keys WHERE org_id = $1 AND member_id = $2 AND revoked_at IS NULL',
      [orgId, agentId],
    );
    return rows[0]?.n ?? 0;
  }

  /** Revokes every active key of the agent (they stop working on the next request). */
  async revokeAllKeys(manager: EntityManager, orgId: string, agentId: string): Promise<void> {
    await manager.query('UPDATE api_keys SET revoked_at = now() WHERE org_id = $1 AND member_id = $2 AND revoked_at IS NULL', [orgId, agentId]);
  }

  /** Every key of the agent, active and revoked, newest first (metadata only). */
  async keys(orgId: string, agentId: string): Promise<KeyRow[]> {
    return this.db.query(
      `SELECT id, key_prefix, created_at, last_used_at, revoked_at FROM api_keys
        WHERE org_id = $1 AND member_id = $2 ORDER BY created_at DESC, id DESC`,
      [orgId, agentId],
    );
  }

  /** Names of the given projects of the organization (ids that do not exist are left out). */
  async projectSummaries(orgId: string, ids: Iterable<string>): Promise<Map<string, ProjectSummary>> {
    const list = [...new Set(ids)];
    const out = new Map<string, ProjectSummary>();
    if (!list.length) return out;
    const rows: ProjectSummary[] = await this.db.query('SELECT id, name FROM projects WHERE org_id = $1 AND id = ANY($2::uuid[])', [orgId, list]);
    for (const r of rows) out.set(r.id, r);
    return out;
  }
}
