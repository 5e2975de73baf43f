import { Injectable } from '@nestjs/common';
import { Sql } from '../../database/sql.service';
import type { OrgScopeSource } from './decorators';
import type { Actor, AgentPrincipal, MemberGrant } from './principal';

type OrgRole = Actor['role'];

/**
 * A member's explicit project grants and, for non-guests (`throughTeams`), `edit` through teams
 * assigned to projects; the arguments are SQL expressions (parameters or columns). The one
 * definition: AccessRepository lists them for any member, the credential look-ups for the caller.
 */
export const grantsSql = (
  org: string,
  member: string,
  throughTeams: string,
): string => `SELECT project_id, access_level FROM project_members WHERE org_id = ${org} AND member_id = ${member}
  UNION ALL
  SELECT pt.project_id, 'edit' FROM project_teams pt
    JOIN team_members tm ON tm.org_id = pt.org_id AND tm.team_id = pt.team_id
   WHERE pt.org_id = ${org} AND tm.member_id = ${member} AND ${throughTeams}`;

/**
 * The caller's own grants as one JSON column of its credential look-up (`m` = its member row):
 * none read (null) for owners and admins (their role decides) and personal agents (their owner's
 * access decides), so their requests never pay for it.
 */
const CALLER_GRANTS = `CASE WHEN m.role IN ('owner', 'admin') OR m.agent_scope = 'personal' THEN NULL
  ELSE coalesce((SELECT json_agg(g) FROM (${grantsSql('m.org_id', 'm.id', "m.role <> 'guest'")}) g), '[]'::json) END AS grants`;
type AgentScope = AgentPrincipal['agentScope'];
/** How many key homes a process remembers (AuthRepository.keyHome). */
const KEY_HOMES = 50_000;

/** The live agent behind an API key. */
export interface ApiKeyPrincipalRow {
  id: string;
  org_id: string;
  member_id: string;
  role: OrgRole;
  display_name: string;
  agent_scope: AgentScope;
  owner_member_id: string | null;
  avatar_url: string | null;
  grants: MemberGrant[] | null;
}

/** The user behind a live session. */
export interface SessionPrincipalRow {
  id: string;
  user_id: string;
  email: string;
  display_name: string;
}

/** A human's live member record in one organization. */
export interface HumanMemberRow {
  id: string;
  role: OrgRole;
  display_name: string;
  avatar_url: string | null;
  grants: MemberGrant[] | null;
}

/** The member record of a user in an organization, as the auth context shows it. */
export interface MembershipRow {
  org_id: string;
  id: string;
  role: OrgRole;
}

/** The organization of a tenant row named by id, per `@OrgScoped({ via })` source table. */
const ORG_OF: Record<NonNullable<OrgScopeSource['via']>, string> = {
  webhooks: 'SELECT org_id FROM webhooks WHERE id = $1',
};

/** The statement of `agentByKeyHash`: one constant text, so finding its prepared statement's name does not hash a newly built string on every call. */
const AGENT_BY_KEY = `SELECT k.id, k.org_id, k.member_id, m.role, m.display_name, m.agent_scope, m.owner_member_id, m.avatar_url, ${CALLER_GRANTS}
         FROM api_keys k JOIN members m ON m.org_id = k.org_id AND m.id = k.member_id
        WHERE k.org_id = $1 AND k.id = $2 AND k.key_hash = $3 AND k.revoked_at IS NULL AND m.removed_at IS NULL AND m.type = 'agent'`;

/**
 * Credential and caller look-ups of every authenticated request (API keys, sessions, the caller's
 * member record): named prepared statements, one indexed query each.
 */
@Injectable()
export class AuthRepository {
  /** key hash (base64) → its organization and key id: see keyHome. */
  private readonly keyHomes = new Map<string, { org_id: string; api_key_id: string }>();

  constructor(private readonly sql: Sql) {}

  /**
   * The live agent whose active key has this hash, or undefined. The organization is not known
   * yet: the global reference table `api_key_lookup` gives it (and the key), then the key and its
   * member are read within that organization (one shard under Citus: docs/CITUS.md).
   */
  async agentByKeyHash(keyHash: Buffer): Promise<ApiKeyPrincipalRow | undefined> {
    const found = await this.keyHome(keyHash);
    if (!found) return undefined;
    return this.sql.row<ApiKeyPrincipalRow>(AGENT_BY_KEY, [found.org_id, found.api_key_id, keyHash]);
  }

  /**
   * Where a key hash lives (organization and key id), from `api_key_lookup`, remembered in this
   * process: the pair never changes for a hash (a new or rotated key is a new hash), so a kept pair
   * can never grant anything by itself. Revocation, removal and deletion are decided by the second
   * statement of agentByKeyHash, which reads the key and its member every time; a pair whose key is
   * gone simply finds nothing there. Only found pairs are kept (unknown hashes always ask), at most
   * KEY_HOMES of them, the least recently used dropped first. Saves one statement per agent request.
   */
  private async keyHome(keyHash: Buffer): Promise<{ org_id: string; api_key_id: string } | undefined> {
    const k = keyHash.toString('base64');
    const kept = this.keyHomes.get(k);
    if (kept) {
      this.keyHomes.delete(k);
      this.keyHomes.set(k, kept);
      return kept;
    }
    const found = await this.sql.row<{ org_id: string; api_key_id: string }>('SELECT org_id, api_key_id FROM api_key_lookup WHERE key_hash = $1', [keyHash]);
    if (!found) return undefined;
    this.keyHomes.set(k, { org_id: found.org_id, api_key_id: found.api_key_id });
    if (this.keyHomes.size > KEY_HOMES) this.keyHomes.delete(this.keyHomes.keys().next().value!);
    return found;
  }

  /** Records that key `keyId` was used now. */
  async touchKey(orgId: string, keyId: string): Promise<void> {
    await this.sql.run('UPDATE api_keys SET last_used_at = now() WHERE org_id = $1 AND id = $2', [orgId, keyId]);
  }

  /** The user of the unexpired session with this token hash, or undefined. */
  userBySessionHash(tokenHash: Buffer): Promise<SessionPrincipalRow | undefined> {
    return this.sql.row<SessionPrincipalRow>(
      `SELECT s.id, s.user_id, u.email, u.display_name
         FROM sessions s JOIN users u ON u.id = s.user_id
        WHERE s.token_hash = $1 AND s.expires_at > now()`,
      [tokenHash],
    );
  }

  /** The organization of row `id` of the `via` table, or undefined when there is none. */
  async orgOf(via: NonNullable<OrgScopeSource['via']>, id: string): Promise<string | undefined> {
    return (await this.sql.row<{ org_id: string }>(ORG_OF[via], [id]))?.org_id;
  }

  /** The live member record of user `userId` in organization `orgId`, or undefined. */
  humanMember(orgId: string, userId: string): Promise<HumanMemberRow | undefined> {
    return this.sql.row<HumanMemberRow>(
      `SELECT m.id, m.role, m.display_name, m.avatar_url, ${CALLER_GRANTS} FROM members m WHERE m.org_id = $1 AND m.user_id = $2 AND m.removed_at IS NULL`,
      [orgId, userId],
    );
  }

  /** The first live membership of user `userId` (in `orgId` when given), or undefined. */
  firstMembership(userId: string, orgId: string | null): Promise<MembershipRow | undefined> {
    return this.sql.row<MembershipRow>(
      `SELECT org_id, id, role FROM members
        WHERE user_id = $1 AND removed_at IS NULL AND ($2::uuid IS NULL OR org_id = $2::uuid)
        ORDER BY created_at, org_id LIMIT 1`,
      [userId, orgId],
    );
  }
}
