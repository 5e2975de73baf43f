import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 18: deployment-provider connections (Vercel) with their durable callback observations and
 * the deployment projection they maintain, and the private inbound email inbox (messages, their
 * append-only audit actions and private attachments). Tenant tables: `org_id` in every key and
 * foreign key; no SET NULL (docs/CITUS.md). Credentials are sealed text (SecretBox); nothing raw
 * from a provider is stored.
 */
export class DeploymentsInbox1765710000000 implements MigrationInterface {
  name = 'DeploymentsInbox1765710000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE deployment_connections (
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        id uuid NOT NULL,
        provider text NOT NULL CHECK (provider IN ('vercel')),
        team_id text,
        project_id text NOT NULL,
        project_name text,
        token_sealed text NOT NULL,
        webhook_secret_sealed text NOT NULL,
        enabled boolean NOT NULL DEFAULT true,
        created_by_member_id uuid NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT deployment_connections_created_by_fk FOREIGN KEY (org_id, created_by_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED
      )`);
    // the callback finds its connection by the opaque id alone (before the organization is known)
    await q.query('CREATE INDEX deployment_connections_id_idx ON deployment_connections (id)');
    await q.query(`
      CREATE TABLE deployment_events (
        org_id uuid NOT NULL,
        connection_id uuid NOT NULL,
        event_id text NOT NULL,
        event_type text NOT NULL,
        deployment_id text NOT NULL,
        complete boolean NOT NULL,
        code text,
        received_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, connection_id, event_id),
        CONSTRAINT deployment_events_connection_fk FOREIGN KEY (org_id, connection_id) REFERENCES deployment_connections(org_id, id) ON DELETE CASCADE
      )`);
    await q.query(`
      CREATE TABLE deployments (
        org_id uuid NOT NULL,
        connection_id uuid NOT NULL,
        deployment_id text NOT NULL,
        project_id text NOT NULL,
        last_event_type text NOT NULL,
        last_event_at timestamptz NOT NULL,
        environment text,
        ready_state text,
        production boolean NOT NULL DEFAULT false,
        url text,
        verified_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, connection_id, deployment_id),
        CONSTRAINT deployments_connection_fk FOREIGN KEY (org_id, connection_id) REFERENCES deployment_connections(org_id, id) ON DELETE CASCADE
      )`);

    await q.query(`
      CREATE TABLE inbox_emails (
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        id uuid NOT NULL,
        provider_email_id text NOT NULL,
        mailbox text NOT NULL,
        message_id text,
        from_address text,
        from_name text,
        to_addresses jsonb NOT NULL DEFAULT '[]',
        cc_addresses jsonb NOT NULL DEFAULT '[]',
        subject text NOT NULL DEFAULT '',
        body_text text,
        body_html_sanitized text,
        status text NOT NULL DEFAULT 'untriaged'
          CHECK (status IN ('untriaged', 'triaged', 'action_required', 'waiting', 'resolved', 'ignored', 'quarantined')),
        category text CHECK (category IN ('support', 'security', 'sales', 'partnership', 'press', 'personal', 'spam', 'other')),
        priority smallint CHECK (priority BETWEEN 0 AND 4),
        ingestion_status text NOT NULL CHECK (ingestion_status IN ('pending', 'complete', 'failed', 'quarantined')),
        linked_issue_id uuid,
        received_at timestamptz NOT NULL,
        retain_until timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT inbox_emails_provider_uq UNIQUE (org_id, provider_email_id)
      )`);
    await q.query('CREATE INDEX inbox_emails_status_idx ON inbox_emails (org_id, status, received_at DESC)');
    await q.query(`
      CREATE TABLE inbox_email_actions (
        org_id uuid NOT NULL,
        id uuid NOT NULL,
        email_id uuid NOT NULL,
        action text NOT NULL,
        actor_member_id uuid,
        detail jsonb NOT NULL DEFAULT '{}',
        -- clock_timestamp: the actions of one transaction keep their order
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT inbox_email_actions_email_fk FOREIGN KEY (org_id, email_id) REFERENCES inbox_emails(org_id, id) ON DELETE CASCADE,
        CONSTRAINT inbox_email_actions_actor_fk FOREIGN KEY (org_id, actor_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED
      )`);
    await q.query('CREATE INDEX inbox_email_actions_email_idx ON inbox_email_actions (org_id, email_id, created_at)');
    await q.query(`
      CREATE TABLE inbox_attachments (
        org_id uuid NOT NULL,
        id uuid NOT NULL,
        email_id uuid NOT NULL,
        position smallint NOT NULL,
        file_name text NOT NULL,
        content_type text NOT NULL,
        size_bytes bigint NOT NULL,
        status text NOT NULL CHECK (status IN ('stored', 'skipped_oversize', 'unavailable')),
        storage_key text,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT inbox_attachments_email_fk FOREIGN KEY (org_id, email_id) REFERENCES inbox_emails(org_id, id) ON DELETE CASCADE
      )`);
    await q.query('CREATE INDEX inbox_attachments_email_idx ON inbox_attachments (org_id, email_id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS inbox_attachments, inbox_email_actions, inbox_emails, deployments, deployment_events, deployment_connections');
  }
}
