import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * OAuth 2.1 authorization server for the service's own MCP resource (issue 16).
 *
 * Global (reference-style) tables, keyed without org_id: they belong to users and OAuth clients,
 * not to one organization (one connection may act as agents of several organizations):
 * - oauth_clients: dynamically registered public clients (RFC 7591), exact redirect URIs;
 * - oauth_authorization_requests: an authorization request waiting for the signed-in human's consent;
 * - oauth_grants: a connection (one human, one client, one resource), revocable;
 * - oauth_codes / oauth_tokens: authorization codes and access/refresh tokens, stored only as
 *   SHA-256 hashes (a leaked table cannot be replayed).
 * Tenant table, keyed with org_id: oauth_grant_agents (the agents a connection may act as; its id
 * is the connection's `profile_ref` for that agent), referencing the agent's member row.
 */
export class OAuth1765600000000 implements MigrationInterface {
  name = 'OAuth1765600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE oauth_clients (
        id uuid PRIMARY KEY,
        client_name text CHECK (client_name IS NULL OR length(client_name) BETWEEN 1 AND 200),
        redirect_uris text[] NOT NULL CHECK (cardinality(redirect_uris) BETWEEN 1 AND 10),
        client_uri text CHECK (client_uri IS NULL OR length(client_uri) <= 2048),
        software_id text CHECK (software_id IS NULL OR length(software_id) <= 200),
        software_version text CHECK (software_version IS NULL OR length(software_version) <= 200),
        scope text CHECK (scope IS NULL OR length(scope) <= 1000),
        token_endpoint_auth_method text NOT NULL DEFAULT 'none' CHECK (token_endpoint_auth_method = 'none'),
        created_at timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE oauth_authorization_requests (
        id uuid PRIMARY KEY,
        client_id uuid NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        redirect_uri text NOT NULL,
        code_challenge text NOT NULL CHECK (code_challenge ~ '^[A-Za-z0-9_-]{43}$'),
        state text CHECK (state IS NULL OR length(state) <= 1000),
        scope text CHECK (scope IS NULL OR length(scope) <= 1000),
        resource text NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'denied')),
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        CONSTRAINT oauth_authorization_requests_expiry CHECK (expires_at > created_at)
      );
      CREATE INDEX oauth_authorization_requests_user_idx ON oauth_authorization_requests (user_id);
      CREATE INDEX oauth_authorization_requests_expires_idx ON oauth_authorization_requests (expires_at);

      CREATE TABLE oauth_grants (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        client_id uuid NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
        resource text NOT NULL,
        scope text,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        revoked_at timestamptz,
        revoked_reason text CHECK (revoked_reason IS NULL OR revoked_reason IN ('user', 'refresh_token_reuse', 'client')),
        CONSTRAINT oauth_grants_revocation_reason CHECK ((revoked_at IS NULL) = (revoked_reason IS NULL))
      );
      CREATE INDEX oauth_grants_user_idx ON oauth_grants (user_id, created_at DESC, id);

      CREATE TABLE oauth_grant_agents (
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        -- the profile_ref: an opaque selector, not a credential
        id uuid NOT NULL,
        grant_id uuid NOT NULL REFERENCES oauth_grants(id) ON DELETE CASCADE,
        member_id uuid NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT oauth_grant_agents_member_fk FOREIGN KEY (org_id, member_id) REFERENCES members(org_id, id) ON DELETE CASCADE,
        CONSTRAINT oauth_grant_agents_uq UNIQUE (grant_id, org_id, member_id)
      );
      CREATE UNIQUE INDEX oauth_grant_agents_id_uq ON oauth_grant_agents (id);
      CREATE INDEX oauth_grant_agents_member_idx ON oauth_grant_agents (org_id, member_id);

      CREATE TABLE oauth_codes (
        code_hash bytea PRIMARY KEY,
        grant_id uuid NOT NULL REFERENCES oauth_grants(id) ON DELETE CASCADE,
        client_id uuid NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
        redirect_uri text NOT NULL,
        code_challenge text NOT NULL,
        resource text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      );
      CREATE INDEX oauth_codes_grant_idx ON oauth_codes (grant_id);
      CREATE INDEX oauth_codes_expires_idx ON oauth_codes (expires_at);

      CREATE TABLE oauth_tokens (
        token_hash bytea PRIMARY KEY,
        kind text NOT NULL CHECK (kind IN ('access', 'refresh')),
        grant_id uuid NOT NULL REFERENCES oauth_grants(id) ON DELETE CASCADE,
        resource text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        -- refresh tokens: when it was exchanged (rotation); presenting it again revokes the grant
        used_at timestamptz,
        revoked_at timestamptz,
        CONSTRAINT oauth_tokens_used_only_refresh CHECK (used_at IS NULL OR kind = 'refresh')
      );
      CREATE INDEX oauth_tokens_grant_idx ON oauth_tokens (grant_id);
      CREATE INDEX oauth_tokens_expires_idx ON oauth_tokens (expires_at);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS oauth_tokens, oauth_codes, oauth_grant_agents, oauth_grants, oauth_authorization_requests, oauth_clients;');
  }
}
