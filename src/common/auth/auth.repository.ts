import { Injectable } from '@nestjs/common';
import { Sql } from '../../database/sql.service';
import type { OrgScopeSource } from './decorators';
import type { Actor, AgentPrincipal } from './principal';

type OrgRole = Actor['role'];
type AgentScope = AgentPrincipal['agentScope'];

/** The live agent behind an API key. */
export interface ApiKeyPrincipalRow {
  id: string;
  org_id: string;
  member_id: string;
  role: OrgRole;
  display_name: string;
  agent_scope: AgentScope;
  owner_member_id: string | null;
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

/**
 * Credential and caller look-ups of every authenticated request (API keys, sessions, the caller's
 * member record): named prepared statements, one indexed query each.
 */
@Injectable()
export class AuthRepository {
  constructor(private readonly sql: Sql) {}

  /** The live agent whose active key has this hash, or undefined. */
  agentByKeyHash(keyHash: Buffer): Promise<ApiKeyPrincipalRow | undefined> {
    return this.sql.row<ApiKeyPrincipalRow>(
      `SELECT k.id, k.org_id, k.member_id, m.role, m.display_name, m.agent_scope, m.owner_member_id
         FROM api_keys k JOIN members m ON m.org_id = k.org_id AND m.id = k.member_id
        WHERE k.key_hash = $1 AND k.revoked_at IS NULL AND m.removed_at IS NULL AND m.type = 'agent'`,
      [keyHash],
    );
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
    return this.sql.row<HumanMemberRow>(`SELECT id, role, display_name FROM members WHERE org_id = $1 AND user_id = $2 AND removed_at IS NULL`, [
      orgId,
      userId,
    ]);
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
