import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * GitHub integration (src/modules/github): source-hosting connections with sealed secrets,
 * pull-request links on issues, external references (issue and project targets) proven by live
 * provider ids, webhook deliveries (idempotency per `X-GitHub-Delivery`), provider observations
 * (PR state, reviews, check runs, commit statuses, workflow runs) and `verification.completed`
 * attention items. Every table is a tenant table (org_id first in every key and foreign key).
 */
export class Github1765700000000 implements MigrationInterface {
  name = 'Github1765700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE github_connections (
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        id uuid NOT NULL,
        token_sealed text NOT NULL,
        webhook_secret_sealed text NOT NULL,
        account_login text CHECK (length(account_login) <= 100),
        account_id bigint,
        verification_mode text NOT NULL DEFAULT 'off' CHECK (verification_mode IN ('off', 'attention')),
        enabled boolean NOT NULL DEFAULT true,
        created_by_member_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT github_connections_created_by_fk FOREIGN KEY (org_id, created_by_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED
      );
      -- the webhook route names a connection by its opaque id alone
      CREATE INDEX github_connections_id_idx ON github_connections (id);

      CREATE TABLE github_pr_links (
        org_id uuid NOT NULL,
        id uuid NOT NULL,
        issue_id uuid NOT NULL,
        owner text NOT NULL CHECK (length(owner) BETWEEN 1 AND 100),
        repo text NOT NULL CHECK (length(repo) BETWEEN 1 AND 100),
        pr_number integer NOT NULL CHECK (pr_number > 0),
        pr_id bigint,
        github_repository_id bigint,
        external_reference_id uuid,
        pr_url text NOT NULL CHECK (length(pr_url) <= 400),
        pr_title text NOT NULL CHECK (length(pr_title) <= 1000),
        pr_status text NOT NULL CHECK (pr_status IN ('open', 'draft', 'closed', 'merged', 'unknown')),
        head_sha text CHECK (head_sha ~ '^[0-9a-f]{40}$'),
        base_ref text CHECK (length(base_ref) <= 255),
        base_sha text CHECK (base_sha ~ '^[0-9a-f]{40}$'),
        -- earlier head SHAs, newest first (bounded by the application)
        head_history jsonb NOT NULL DEFAULT '[]'::jsonb CHECK (jsonb_typeof(head_history) = 'array'),
        identity_attempts integer NOT NULL DEFAULT 0,
        identity_next_at timestamptz,
        created_by_member_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT github_pr_links_issue_fk FOREIGN KEY (org_id, issue_id) REFERENCES issues(org_id, id) ON DELETE CASCADE,
        CONSTRAINT github_pr_links_created_by_fk FOREIGN KEY (org_id, created_by_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED
      );
      CREATE UNIQUE INDEX github_pr_links_uq ON github_pr_links (org_id, issue_id, lower(owner), lower(repo), pr_number);
      CREATE INDEX github_pr_links_pr_idx ON github_pr_links (org_id, lower(owner), lower(repo), pr_number);
      CREATE INDEX github_pr_links_identity_idx ON github_pr_links (identity_next_at) WHERE pr_id IS NULL;

      CREATE TABLE github_external_references (
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        id uuid NOT NULL,
        provider text NOT NULL CHECK (provider = 'github'),
        object_type text NOT NULL CHECK (object_type = 'pull_request'),
        provenance text NOT NULL CHECK (octet_length(provenance) <= 64),
        repository_id bigint NOT NULL,
        pr_id bigint NOT NULL,
        owner text NOT NULL,
        repo text NOT NULL,
        pr_number integer NOT NULL,
        canonical_url text NOT NULL CHECK (octet_length(canonical_url) <= 2048 AND canonical_url ~ '^https://'),
        label text CHECK (length(label) <= 240 AND octet_length(label) <= 960),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT github_external_references_identity_uq UNIQUE (org_id, provider, object_type, repository_id, pr_id)
      );

      CREATE TABLE github_external_reference_links (
        org_id uuid NOT NULL,
        id uuid NOT NULL,
        external_reference_id uuid NOT NULL,
        target_type text NOT NULL CHECK (target_type IN ('issue', 'project')),
        issue_id uuid,
        project_id uuid,
        created_by_member_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT github_ext_ref_links_target_ck CHECK ((target_type = 'issue') = (issue_id IS NOT NULL) AND (target_type = 'project') = (project_id IS NOT NULL)),
        CONSTRAINT github_ext_ref_links_reference_fk FOREIGN KEY (org_id, external_reference_id) REFERENCES github_external_references(org_id, id) ON DELETE CASCADE,
        CONSTRAINT github_ext_ref_links_issue_fk FOREIGN KEY (org_id, issue_id) REFERENCES issues(org_id, id) ON DELETE CASCADE,
        CONSTRAINT github_ext_ref_links_project_fk FOREIGN KEY (org_id, project_id) REFERENCES projects(org_id, id) ON DELETE CASCADE,
        CONSTRAINT github_ext_ref_links_created_by_fk FOREIGN KEY (org_id, created_by_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED
      );
      CREATE UNIQUE INDEX github_ext_ref_links_uq ON github_external_reference_links (org_id, external_reference_id, target_type, coalesce(issue_id, project_id));
      CREATE INDEX github_ext_ref_links_issue_idx ON github_external_reference_links (org_id, issue_id) WHERE issue_id IS NOT NULL;
      CREATE INDEX github_ext_ref_links_project_idx ON github_external_reference_links (org_id, project_id) WHERE project_id IS NOT NULL;

      CREATE TABLE github_webhook_deliveries (
        org_id uuid NOT NULL,
        connection_id uuid NOT NULL,
        delivery_id text NOT NULL CHECK (length(delivery_id) BETWEEN 1 AND 100),
        event text NOT NULL CHECK (length(event) <= 100),
        received_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, connection_id, delivery_id),
        CONSTRAINT github_webhook_deliveries_connection_fk FOREIGN KEY (org_id, connection_id) REFERENCES github_connections(org_id, id) ON DELETE CASCADE
      );

      CREATE TABLE github_observations (
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        id uuid NOT NULL,
        kind text NOT NULL CHECK (kind IN ('pull_request', 'review', 'check_run', 'status', 'workflow_run')),
        repo_key text NOT NULL CHECK (length(repo_key) <= 201),
        repository_id bigint,
        pr_number integer,
        head_sha text CHECK (head_sha ~ '^[0-9a-f]{40}$'),
        external_id text NOT NULL CHECK (length(external_id) <= 100),
        name text CHECK (length(name) <= 255),
        state text CHECK (length(state) <= 40),
        conclusion text CHECK (length(conclusion) <= 40),
        app_id bigint,
        actor_id bigint,
        run_attempt integer,
        path text CHECK (length(path) <= 255),
        html_url text CHECK (length(html_url) <= 400),
        provider_event_id text CHECK (length(provider_event_id) <= 100),
        provider_updated_at timestamptz,
        observed_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT github_observations_identity_uq UNIQUE (org_id, kind, repo_key, external_id)
      );
      CREATE INDEX github_observations_head_idx ON github_observations (org_id, repo_key, head_sha);

      CREATE TABLE github_verification_items (
        org_id uuid NOT NULL,
        id uuid NOT NULL,
        recipient_member_id uuid NOT NULL,
        issue_id uuid NOT NULL,
        repo_key text NOT NULL,
        repository_id bigint,
        pr_number integer NOT NULL,
        run_id bigint NOT NULL,
        run_attempt integer NOT NULL,
        head_sha text NOT NULL CHECK (head_sha ~ '^[0-9a-f]{40}$'),
        workflow_name text CHECK (length(workflow_name) <= 255),
        conclusion text NOT NULL CHECK (length(conclusion) <= 40),
        run_url text NOT NULL CHECK (length(run_url) <= 400),
        verification_event_id text NOT NULL CHECK (length(verification_event_id) <= 100),
        created_at timestamptz NOT NULL DEFAULT now(),
        acknowledged_at timestamptz,
        PRIMARY KEY (org_id, id),
        CONSTRAINT github_verification_items_recipient_fk FOREIGN KEY (org_id, recipient_member_id) REFERENCES members(org_id, id) ON DELETE CASCADE,
        CONSTRAINT github_verification_items_issue_fk FOREIGN KEY (org_id, issue_id) REFERENCES issues(org_id, id) ON DELETE CASCADE
      );
      CREATE UNIQUE INDEX github_verification_items_uq
        ON github_verification_items (org_id, recipient_member_id, repo_key, pr_number, run_id, run_attempt, head_sha);
      CREATE INDEX github_verification_items_unread_idx ON github_verification_items (org_id, recipient_member_id, created_at DESC) WHERE acknowledged_at IS NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE github_verification_items;
      DROP TABLE github_observations;
      DROP TABLE github_webhook_deliveries;
      DROP TABLE github_external_reference_links;
      DROP TABLE github_external_references;
      DROP TABLE github_pr_links;
      DROP TABLE github_connections;
    `);
  }
}
