import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Sql, type Tx } from '../../database/sql.service';
import { newApiKey } from '../../common/auth/tokens';
import { Errors } from '../../common/errors/domain-error';
import type { AgentScope, OrgRole } from '../../common/auth/roles';
import type { AgentRow, KeyRow, MintedKey } from './agent.types';

/** Which active agents of an organization to read. */
export type AgentFilter =
  | { kind: 'all' }
  | { kind: 'one'; agentId: string }
  | { kind: 'ids'; ids: string[] }
  /** Agents the member created or personally owns. */
  | { kind: 'createdOrOwnedBy'; memberId: string }
  /** Personal agents the member owns. */
  | { kind: 'ownedBy'; memberId: string }
  /** Agents with an active key the member minted. */
  | { kind: 'keyedBy'; memberId: string };

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
    case 'ownedBy':
      return { sql: " AND m.agent_scope = 'personal' AND m.owner_member_id = $2", params: [filter.memberId] };
    case 'keyedBy':
      return {
        sql: ' AND EXISTS (SELECT 1 FROM api_keys x WHERE x.org_id = m.org_id AND x.member_id = m.id AND x.created_by_member_id = $2 AND x.revoked_at IS NULL)',
        params: [filter.memberId],
      };
  }
}

/** Agents (member rows of type `agent`) and their API keys. Every statement filters by org_id. */
@Injectable()
export class AgentsRepository {
  constructor(private readonly sql: Sql) {}

  /** Active agents in creation order, optionally one page of them. */
  find(orgId: string, filter: AgentFilter, page?: { limit: number; offset: number }, m?: Tx): Promise<AgentRow[]> {
    const f = filterSql(filter);
    const params: unknown[] = [orgId, ...f.params];
    let sql = `${AGENT_SELECT}${f.sql} ORDER BY m.created_at, m.id`;
    if (page) {
      params.push(page.limit, page.offset);
      sql += ` LIMIT $${params.length - 1} OFFSET $${params.length}`;
    }
    return this.sql.rows<AgentRow>(sql, params, m);
  }

  /** How many active agents match the filter. */
  async count(orgId: string, filter: AgentFilter): Promise<number> {
    const f = filterSql(filter);
    const row = await this.sql.row<{ n: number }>(
      `SELECT count(*)::int AS n FROM members m WHERE m.org_id = $1 AND m.type = 'agent' AND m.removed_at IS NULL${f.sql}`,
      [orgId, ...f.params],
    );
    return row?.n ?? 0;
  }

  /** Active agent `agentId`, or null. */
  async findOne(orgId: string, agentId: string, m?: Tx): Promise<AgentRow | null> {
    const rows = await this.find(orgId, { kind: 'one', agentId }, undefined, m);
    return rows[0] ?? null;
  }

  /** Locks the agent's member row for the rest of the transaction; 404 when it is not an active agent. */
  async lock(orgId: string, agentId: string, m: Tx): Promise<void> {
    const rows = await this.sql.rows(
      `SELECT 1 FROM members WHERE org_id = $1 AND id = $2 AND type = 'agent' AND removed_at IS NULL FOR UPDATE`,
      [orgId, agentId],
      m,
    );
    if (!rows.length) throw Errors.notFound('Agent not found');
  }

  /** Stores a new agent (its member row). */
  async insert(
    agent: { orgId: string; id: string; role: OrgRole; name: string; scope: AgentScope; ownerMemberId: string | null; createdByMemberId: string },
    m?: Tx,
  ): Promise<void> {
    await this.sql.run(
      `INSERT INTO members (org_id, id, type, user_id, role, display_name, agent_scope, owner_member_id, created_by_member_id)
         VALUES ($1, $2, 'agent', NULL, $3, $4, $5, $6, $7)`,
      [agent.orgId, agent.id, agent.role, agent.name, agent.scope, agent.ownerMemberId, agent.createdByMemberId],
      m,
    );
  }

  /** Marks agent `agentId` removed (it leaves every list and no longer counts against the plan). */
  async markRemoved(orgId: string, agentId: string, m?: Tx): Promise<void> {
    await this.sql.run(`UPDATE members SET removed_at = now(), updated_at = now() WHERE org_id = $1 AND id = $2 AND type = 'agent'`, [orgId, agentId], m);
  }

  /** Sets the agent's updated_at to now. */
  async touch(orgId: string, agentId: string, m?: Tx): Promise<void> {
    await this.sql.run('UPDATE members SET updated_at = now() WHERE org_id = $1 AND id = $2', [orgId, agentId], m);
  }

  /**
   * Mints a key: only its SHA-256 hash and display prefix are stored; the full key is returned once.
   * The hash goes into the global `api_key_lookup` too (hash → organization, key; where requests
   * find their key before the organization is known), in the caller's transaction.
   */
  async mintKey(orgId: string, agentId: string, createdByMemberId: string, m: Tx): Promise<MintedKey> {
    const { key, hash, prefix } = newApiKey();
    const id = randomUUID();
    await this.sql.run('INSERT INTO api_key_lookup (key_hash, org_id, api_key_id) VALUES ($1, $2, $3)', [hash, orgId, id], m);
    const row = await this.sql.row<{ created_at: Date }>(
      `INSERT INTO api_keys (org_id, id, member_id, key_hash, key_prefix, created_by_member_id)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING created_at`,
      [orgId, id, agentId, hash, prefix, createdByMemberId],
      m,
    );
    return { id, key, prefix, createdAt: row!.created_at };
  }

  /** How many active (not revoked) keys the agent has. */
  async activeKeyCount(orgId: string, agentId: string, m?: Tx): Promise<number> {
    const row = await this.sql.row<{ n: number }>(
      'SELECT count(*)::int AS n FROM api_keys WHERE org_id = $1 AND member_id = $2 AND revoked_at IS NULL',
      [orgId, agentId],
      m,
    );
    return row?.n ?? 0;
  }

  /** Revokes every active key of the agent (they stop working on the next request). */
  async revokeAllKeys(orgId: string, agentId: string, m?: Tx): Promise<void> {
    await this.sql.run('UPDATE api_keys SET revoked_at = now() WHERE org_id = $1 AND member_id = $2 AND revoked_at IS NULL', [orgId, agentId], m);
  }

  /** Revokes the active keys of the agents `agentIds` that member `mintedBy` minted (keys others minted keep working). */
  async revokeKeysMintedBy(orgId: string, agentIds: string[], mintedBy: string, m?: Tx): Promise<void> {
    await this.sql.run(
      'UPDATE api_keys SET revoked_at = now() WHERE org_id = $1 AND member_id = ANY($2::uuid[]) AND created_by_member_id = $3 AND revoked_at IS NULL',
      [orgId, agentIds, mintedBy],
      m,
    );
  }

  /** Whether key `keyId` (active or revoked) belongs to the agent. */
  async hasKey(orgId: string, agentId: string, keyId: string): Promise<boolean> {
    return (await this.sql.rows('SELECT 1 FROM api_keys WHERE org_id = $1 AND member_id = $2 AND id = $3', [orgId, agentId, keyId])).length > 0;
  }

  /** Revokes key `keyId` of the agent (no-op when already revoked). */
  async revokeKey(orgId: string, agentId: string, keyId: string): Promise<void> {
    await this.sql.run('UPDATE api_keys SET revoked_at = now() WHERE org_id = $1 AND member_id = $2 AND id = $3 AND revoked_at IS NULL', [
      orgId,
      agentId,
      keyId,
    ]);
  }

  /** Every key of the agent, active and revoked, newest first (metadata only). */
  keys(orgId: string, agentId: string): Promise<KeyRow[]> {
    return this.sql.rows<KeyRow>(
      `SELECT id, key_prefix, created_at, last_used_at, revoked_at FROM api_keys
        WHERE org_id = $1 AND member_id = $2 ORDER BY created_at DESC, id DESC`,
      [orgId, agentId],
    );
  }
}
