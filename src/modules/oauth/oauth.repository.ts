import { Injectable } from '@nestjs/common';
import type { OrgRole } from '../../common/auth/roles';
import { Sql, type Tx } from '../../database/sql.service';

export interface ClientRow {
  id: string;
  client_name: string | null;
  redirect_uris: string[];
  client_uri: string | null;
  software_id: string | null;
  software_version: string | null;
  scope: string | null;
  token_endpoint_auth_method: string;
  created_at: Date;
}

export interface AuthorizationRequestRow {
  id: string;
  client_id: string;
  user_id: string;
  redirect_uri: string;
  code_challenge: string;
  state: string | null;
  scope: string | null;
  resource: string;
  status: 'pending' | 'approved' | 'denied';
  expired: boolean;
}

export interface CodeRow {
  grant_id: string;
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  resource: string;
  expired: boolean;
  used: boolean;
  grant_revoked: boolean;
}

export interface TokenRow {
  kind: 'access' | 'refresh';
  grant_id: string;
  client_id: string;
  resource: string;
  expired: boolean;
  used: boolean;
  revoked: boolean;
  grant_revoked: boolean;
}

/** A live grant with what the provenance and the profiles need. */
export interface GrantRow {
  id: string;
  user_id: string;
  user_display_name: string;
  client_id: string;
  client_name: string | null;
  resource: string;
}

/** One consented agent of a grant (its id is the profile_ref), joined with the live agent and organization. */
export interface GrantAgentRow {
  profile_ref: string;
  org_id: string;
  org_name: string;
  member_id: string;
}

export interface ConnectionRow {
  id: string;
  client_id: string;
  client_name: string | null;
  resource: string;
  scope: string | null;
  created_at: Date;
  last_used_at: Date | null;
  agents: Array<{ profile_ref: string; org_id: string; agent_id: string }>;
}

export interface MembershipRow {
  org_id: string;
  org_name: string;
  member_id: string;
  role: OrgRole;
  display_name: string;
}

/** Every statement of the OAuth authorization server (clients, requests, grants, codes, tokens). */
@Injectable()
export class OAuthRepository {
  constructor(private readonly sql: Sql) {}

  async insertClient(c: Omit<ClientRow, 'created_at' | 'token_endpoint_auth_method'>): Promise<ClientRow> {
    return (await this.sql.row<ClientRow>(
      `INSERT INTO oauth_clients (id, client_name, redirect_uris, client_uri, software_id, software_version, scope)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
      [c.id, c.client_name, c.redirect_uris, c.client_uri, c.software_id, c.software_version, c.scope],
    ))!;
  }

  client(id: string): Promise<ClientRow | undefined> {
    return this.sql.row<ClientRow>('SELECT * FROM oauth_clients WHERE id = $1', [id]);
  }

  async insertRequest(r: Omit<AuthorizationRequestRow, 'status' | 'expired'>, ttlSeconds: number): Promise<void> {
    await this.sql.run(
      `INSERT INTO oauth_authorization_requests (id, client_id, user_id, redirect_uri, code_challenge, state, scope, resource, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now() + make_interval(secs => $9))`,
      [r.id, r.client_id, r.user_id, r.redirect_uri, r.code_challenge, r.state, r.scope, r.resource, ttlSeconds],
    );
  }

  /** The request of user `userId`, locked for the decision (none for another user's request). */
  lockRequest(id: string, userId: string, m: Tx): Promise<AuthorizationRequestRow | undefined> {
    return this.sql.row<AuthorizationRequestRow>(
      `SELECT id, client_id, user_id, redirect_uri, code_challenge, state, scope, resource, status, expires_at <= now() AS expired
         FROM oauth_authorization_requests WHERE id = $1 AND user_id = $2 FOR UPDATE`,
      [id, userId],
      m,
    );
  }

  async closeRequest(id: string, status: 'approved' | 'denied', m: Tx): Promise<void> {
    await this.sql.run('UPDATE oauth_authorization_requests SET status = $2 WHERE id = $1', [id, status], m);
  }

  async insertGrant(g: { id: string; userId: string; clientId: string; resource: string; scope: string | null }, m: Tx): Promise<void> {
    await this.sql.run(
      'INSERT INTO oauth_grants (id, user_id, client_id, resource, scope) VALUES ($1, $2, $3, $4, $5)',
      [g.id, g.userId, g.clientId, g.resource, g.scope],
      m,
    );
  }

  async insertGrantAgent(a: { orgId: string; id: string; grantId: string; memberId: string }, m: Tx): Promise<void> {
    await this.sql.run('INSERT INTO oauth_grant_agents (org_id, id, grant_id, member_id) VALUES ($1, $2, $3, $4)', [a.orgId, a.id, a.grantId, a.memberId], m);
  }

  async insertCode(
    c: { hash: Buffer; grantId: string; clientId: string; redirectUri: string; codeChallenge: string; resource: string },
    ttlSeconds: number,
    m: Tx,
  ): Promise<void> {
    await this.sql.run(
      `INSERT INTO oauth_codes (code_hash, grant_id, client_id, redirect_uri, code_challenge, resource, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7))`,
      [c.hash, c.grantId, c.clientId, c.redirectUri, c.codeChallenge, c.resource, ttlSeconds],
      m,
    );
  }

  /** The code, locked so a second exchange waits for the first and then sees it used. */
  lockCode(hash: Buffer, m: Tx): Promise<CodeRow | undefined> {
    return this.sql.row<CodeRow>(
      `SELECT c.grant_id, c.client_id, c.redirect_uri, c.code_challenge, c.resource, c.expires_at <= now() AS expired,
              c.used_at IS NOT NULL AS used, g.revoked_at IS NOT NULL AS grant_revoked
         FROM oauth_codes c JOIN oauth_grants g ON g.id = c.grant_id
        WHERE c.code_hash = $1 FOR UPDATE OF c`,
      [hash],
      m,
    );
  }

  async useCode(hash: Buffer, m: Tx): Promise<void> {
    await this.sql.run('UPDATE oauth_codes SET used_at = now() WHERE code_hash = $1', [hash], m);
  }

  async insertToken(t: { hash: Buffer; kind: 'access' | 'refresh'; grantId: string; resource: string }, ttlSeconds: number, m: Tx): Promise<void> {
    await this.sql.run(
      `INSERT INTO oauth_tokens (token_hash, kind, grant_id, resource, expires_at) VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))`,
      [t.hash, t.kind, t.grantId, t.resource, ttlSeconds],
      m,
    );
  }

  /** A token with its grant's state; locked when `m` is a transaction (refresh rotation). */
  lockToken(hash: Buffer, m: Tx): Promise<TokenRow | undefined> {
    return this.sql.row<TokenRow>(
      `SELECT t.kind, t.grant_id, g.client_id, t.resource, t.expires_at <= now() AS expired, t.used_at IS NOT NULL AS used,
              t.revoked_at IS NOT NULL AS revoked, g.revoked_at IS NOT NULL AS grant_revoked
         FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id
        WHERE t.token_hash = $1 FOR UPDATE OF t`,
      [hash],
      m,
    );
  }

  async useToken(hash: Buffer, m: Tx): Promise<void> {
    await this.sql.run('UPDATE oauth_tokens SET used_at = now() WHERE token_hash = $1', [hash], m);
  }

  async revokeToken(hash: Buffer): Promise<void> {
    await this.sql.run('UPDATE oauth_tokens SET revoked_at = now() WHERE token_hash = $1 AND revoked_at IS NULL', [hash]);
  }

  /** Revokes the grant (its tokens stop working on the next request); true when it was live. */
  async revokeGrant(id: string, reason: 'user' | 'refresh_token_reuse' | 'client', m?: Tx): Promise<boolean> {
    return (await this.sql.run('UPDATE oauth_grants SET revoked_at = now(), revoked_reason = $2 WHERE id = $1 AND revoked_at IS NULL', [id, reason], m)) > 0;
  }

  /** The live grant behind an unexpired, unrevoked access token for `resource`. */
  grantByAccessToken(hash: Buffer, resource: string): Promise<GrantRow | undefined> {
    return this.sql.row<GrantRow>(
      `SELECT g.id, g.user_id, u.display_name AS user_display_name, g.client_id, c.client_name, g.resource
         FROM oauth_tokens t
         JOIN oauth_grants g ON g.id = t.grant_id
         JOIN users u ON u.id = g.user_id
         JOIN oauth_clients c ON c.id = g.client_id
        WHERE t.token_hash = $1 AND t.kind = 'access' AND t.revoked_at IS NULL AND t.expires_at > now()
          AND g.revoked_at IS NULL AND t.resource = $2 AND g.resource = $2`,
      [hash, resource],
    );
  }

  async touchGrant(id: string): Promise<void> {
    await this.sql.run(`UPDATE oauth_grants SET last_used_at = now() WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`, [
      id,
    ]);
  }

  /** The grant's consented agents that are still live agents, with their organization. */
  grantAgents(grantId: string): Promise<GrantAgentRow[]> {
    return this.sql.rows<GrantAgentRow>(
      `SELECT ga.id AS profile_ref, ga.org_id, o.name AS org_name, ga.member_id
         FROM oauth_grant_agents ga
         JOIN members m ON m.org_id = ga.org_id AND m.id = ga.member_id
         JOIN organizations o ON o.id = ga.org_id
        WHERE ga.grant_id = $1 AND m.type = 'agent' AND m.removed_at IS NULL
        ORDER BY ga.created_at, ga.id`,
      [grantId],
    );
  }

  /** The user's live human memberships, with the organization name. */
  memberships(userId: string): Promise<MembershipRow[]> {
    return this.sql.rows<MembershipRow>(
      `SELECT m.org_id, o.name AS org_name, m.id AS member_id, m.role, m.display_name
         FROM members m JOIN organizations o ON o.id = m.org_id
        WHERE m.user_id = $1 AND m.removed_at IS NULL AND m.type = 'human'
        ORDER BY m.created_at, m.org_id`,
      [userId],
    );
  }

  /** The user's live connections, newest first, with their consented agents. */
  connections(userId: string): Promise<ConnectionRow[]> {
    return this.sql.rows<ConnectionRow>(
      `SELECT g.id, g.client_id, c.client_name, g.resource, g.scope, g.created_at, g.last_used_at,
              COALESCE((SELECT json_agg(json_build_object('profile_ref', ga.id, 'org_id', ga.org_id, 'agent_id', ga.member_id) ORDER BY ga.created_at, ga.id)
                          FROM oauth_grant_agents ga WHERE ga.grant_id = g.id), '[]') AS agents
         FROM oauth_grants g JOIN oauth_clients c ON c.id = g.client_id
        WHERE g.user_id = $1 AND g.revoked_at IS NULL
        ORDER BY g.created_at DESC, g.id
        LIMIT 200`,
      [userId],
    );
  }

  /** Revokes the user's own live connection; false when there is none (another user's, unknown or already revoked). */
  async revokeUserGrant(id: string, userId: string): Promise<boolean> {
    return (
      (await this.sql.run(`UPDATE oauth_grants SET revoked_at = now(), revoked_reason = 'user' WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL`, [
        id,
        userId,
      ])) > 0
    );
  }
}
