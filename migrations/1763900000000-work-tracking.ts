import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Work tracking: the rest of the issue record (assignees, team, milestone, parent, dates,
 * recurrence), milestones, issue labels, comments with mentions, dependencies, the activity
 * timeline, attachments and the durable storage-deletion queue. Same scale-out rule: org_id in
 * every key and foreign key.
 */
export class WorkTracking1763900000000 implements MigrationInterface {
  name = 'WorkTracking1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE EXTENSION IF NOT EXISTS pg_trgm;

      CREATE TABLE milestones (
        org_id uuid NOT NULL,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL,
        name text NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 200),
        description text CHECK (length(description) <= 20000),
        target_date date,
        status text NOT NULL DEFAULT 'planned' CHECK (status IN ('planned', 'active', 'completed', 'cancelled')),
        created_by_member_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT milestones_project_fk FOREIGN KEY (org_id, project_id) REFERENCES projects(org_id, id) ON DELETE CASCADE,
        CONSTRAINT milestones_created_by_fk FOREIGN KEY (org_id, created_by_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED
      );
      CREATE INDEX milestones_project_idx ON milestones (org_id, project_id);
      CREATE UNIQUE INDEX milestones_name_uq ON milestones (org_id, project_id, lower(name));

      ALTER TABLE issues
        ADD COLUMN assignee_id uuid,
        ADD COLUMN team_id uuid,
        ADD COLUMN milestone_id uuid,
        ADD COLUMN parent_id uuid,
        ADD COLUMN start_date date,
        ADD COLUMN due_date date,
        ADD COLUMN completed_at timestamptz,
        ADD COLUMN recurrence_type text CHECK (recurrence_type IN ('daily', 'weekly', 'biweekly', 'monthly', 'custom')),
        ADD COLUMN recurrence_interval integer CHECK (recurrence_interval > 0),
        ADD COLUMN recurrence_days text[] CHECK (recurrence_days <@ ARRAY['mon','tue','wed','thu','fri','sat','sun']::text[]),
        ADD COLUMN recurrence_mode text CHECK (recurrence_mode IN ('completion', 'schedule')),
        ADD COLUMN recurrence_time text CHECK (recurrence_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
        ADD COLUMN recurrence_timezone text CHECK (length(recurrence_timezone) <= 64),
        ADD COLUMN recurrence_next_run_at timestamptz,
        -- the occurrence this issue was generated from: unique, so a recurrence fires exactly once
        ADD COLUMN recurrence_source_id uuid,
        ADD CONSTRAINT issues_assignee_fk FOREIGN KEY (org_id, assignee_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED,
        ADD CONSTRAINT issues_team_fk FOREIGN KEY (org_id, team_id) REFERENCES teams(org_id, id) ON DELETE SET NULL (team_id),
        ADD CONSTRAINT issues_milestone_fk FOREIGN KEY (org_id, milestone_id) REFERENCES milestones(org_id, id) ON DELETE SET NULL (milestone_id),
        ADD CONSTRAINT issues_parent_fk FOREIGN KEY (org_id, parent_id) REFERENCES issues(org_id, id) ON DELETE SET NULL (parent_id),
        ADD CONSTRAINT issues_recurrence_source_fk FOREIGN KEY (org_id, recurrence_source_id) REFERENCES issues(org_id, id) ON DELETE SET NULL (recurrence_source_id),
        ADD CONSTRAINT issues_not_own_parent CHECK (parent_id IS DISTINCT FROM id),
        ADD CONSTRAINT issues_dates_ordered CHECK (start_date IS NULL OR due_date IS NULL OR start_date <= due_date);
      CREATE UNIQUE INDEX issues_recurrence_once_uq ON issues (org_id, recurrence_source_id) WHERE recurrence_source_id IS NOT NULL;
      CREATE INDEX issues_org_created_idx ON issues (org_id, created_at DESC, id DESC);
      CREATE INDEX issues_org_updated_idx ON issues (org_id, updated_at DESC, id DESC);
      CREATE INDEX issues_project_created_idx ON issues (org_id, project_id, created_at DESC, id DESC);
      CREATE INDEX issues_org_number_idx ON issues (org_id, number);
      CREATE INDEX issues_assignee_idx ON issues (org_id, assignee_id);
      CREATE INDEX issues_parent_idx ON issues (org_id, parent_id) WHERE parent_id IS NOT NULL;
      CREATE INDEX issues_milestone_idx ON issues (org_id, milestone_id) WHERE milestone_id IS NOT NULL;
      CREATE INDEX issues_schedule_due_idx ON issues (recurrence_next_run_at) WHERE recurrence_mode = 'schedule' AND recurrence_next_run_at IS NOT NULL;
      CREATE INDEX issues_title_trgm_idx ON issues USING gin (title gin_trgm_ops);
      CREATE INDEX issues_description_trgm_idx ON issues USING gin (description gin_trgm_ops);
      -- the default list (non-archived, newest first) and its exact count read only this index
      CREATE INDEX issues_org_live_created_idx ON issues (org_id, created_at DESC, id DESC) WHERE archived_at IS NULL;
      CREATE INDEX issues_org_live_priority_idx ON issues (org_id, priority, created_at DESC, id DESC) WHERE archived_at IS NULL;
      CREATE INDEX issues_org_live_due_idx ON issues (org_id, due_date, id) WHERE archived_at IS NULL;
      -- exact counts of the list: index-only scans of small (deduplicated) partial indexes; the
      -- project index also serves the project's page (newest first)
      CREATE INDEX issues_org_live_idx ON issues (org_id) WHERE archived_at IS NULL;
      CREATE INDEX issues_org_live_status_priority_idx ON issues (org_id, status, priority) WHERE archived_at IS NULL;
      CREATE INDEX issues_project_live_created_idx ON issues (org_id, project_id, created_at DESC, id DESC) WHERE archived_at IS NULL;

      CREATE TABLE issue_assignees (
        org_id uuid NOT NULL,
        issue_id uuid NOT NULL,
        member_id uuid NOT NULL,
        position integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, issue_id, member_id),
        CONSTRAINT issue_assignees_issue_fk FOREIGN KEY (org_id, issue_id) REFERENCES issues(org_id, id) ON DELETE CASCADE,
        CONSTRAINT issue_assignees_member_fk FOREIGN KEY (org_id, member_id) REFERENCES members(org_id, id) ON DELETE CASCADE
      );
      CREATE INDEX issue_assignees_member_idx ON issue_assignees (org_id, member_id);

      CREATE TABLE issue_labels (
        org_id uuid NOT NULL,
        issue_id uuid NOT NULL,
        label_id uuid NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, issue_id, label_id),
        CONSTRAINT issue_labels_issue_fk FOREIGN KEY (org_id, issue_id) REFERENCES issues(org_id, id) ON DELETE CASCADE,
        CONSTRAINT issue_labels_label_fk FOREIGN KEY (org_id, label_id) REFERENCES labels(org_id, id) ON DELETE CASCADE
      );
      CREATE INDEX issue_labels_label_idx ON issue_labels (org_id, label_id);

      CREATE TABLE comments (
        org_id uuid NOT NULL,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        issue_id uuid NOT NULL,
        author_type text NOT NULL CHECK (author_type IN ('member', 'automation')),
        author_member_id uuid,
        body text NOT NULL,
        reply_to_comment_id uuid,
        source_metadata jsonb CHECK (source_metadata IS NULL OR jsonb_typeof(source_metadata) = 'object'),
        edited_at timestamptz,
        deleted_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT comments_issue_fk FOREIGN KEY (org_id, issue_id) REFERENCES issues(org_id, id) ON DELETE CASCADE,
        CONSTRAINT comments_author_fk FOREIGN KEY (org_id, author_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED,
        CONSTRAINT comments_reply_fk FOREIGN KEY (org_id, reply_to_comment_id) REFERENCES comments(org_id, id) ON DELETE SET NULL (reply_to_comment_id),
        CONSTRAINT comments_author_kind CHECK ((author_type = 'member') = (author_member_id IS NOT NULL))
      );
      CREATE INDEX comments_issue_idx ON comments (org_id, issue_id, created_at, id);

      CREATE TABLE comment_mentions (
        org_id uuid NOT NULL,
        comment_id uuid NOT NULL,
        member_id uuid NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, comment_id, member_id),
        CONSTRAINT comment_mentions_comment_fk FOREIGN KEY (org_id, comment_id) REFERENCES comments(org_id, id) ON DELETE CASCADE,
        CONSTRAINT comment_mentions_member_fk FOREIGN KEY (org_id, member_id) REFERENCES members(org_id, id) ON DELETE CASCADE
      );

      CREATE TABLE issue_dependencies (
        org_id uuid NOT NULL,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        blocking_issue_id uuid NOT NULL,
        blocked_issue_id uuid NOT NULL,
        release_column_id uuid,
        created_by_member_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT issue_dependencies_pair_uq UNIQUE (org_id, blocking_issue_id, blocked_issue_id),
        CONSTRAINT issue_dependencies_not_self CHECK (blocking_issue_id <> blocked_issue_id),
        CONSTRAINT issue_dependencies_blocking_fk FOREIGN KEY (org_id, blocking_issue_id) REFERENCES issues(org_id, id) ON DELETE CASCADE,
        CONSTRAINT issue_dependencies_blocked_fk FOREIGN KEY (org_id, blocked_issue_id) REFERENCES issues(org_id, id) ON DELETE CASCADE,
        CONSTRAINT issue_dependencies_release_fk FOREIGN KEY (org_id, release_column_id) REFERENCES board_columns(org_id, id) ON DELETE SET NULL (release_column_id),
        CONSTRAINT issue_dependencies_created_by_fk FOREIGN KEY (org_id, created_by_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED
      );
      CREATE INDEX issue_dependencies_blocked_idx ON issue_dependencies (org_id, blocked_issue_id);
      CREATE INDEX issue_dependencies_release_idx ON issue_dependencies (org_id, release_column_id) WHERE release_column_id IS NOT NULL;

      CREATE TABLE activity_events (
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        issue_id uuid,
        project_id uuid,
        actor_member_id uuid,
        action text NOT NULL CHECK (action ~ '^[a-z_]+\\.[a-z_]+$'),
        metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT activity_events_issue_fk FOREIGN KEY (org_id, issue_id) REFERENCES issues(org_id, id) ON DELETE CASCADE
      );
      CREATE INDEX activity_events_org_idx ON activity_events (org_id, created_at DESC, id DESC);
      CREATE INDEX activity_events_issue_idx ON activity_events (org_id, issue_id, created_at DESC, id DESC) WHERE issue_id IS NOT NULL;
      CREATE INDEX activity_events_actor_idx ON activity_events (org_id, actor_member_id, created_at DESC);

      CREATE TABLE attachments (
        org_id uuid NOT NULL,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        issue_id uuid NOT NULL,
        file_name text NOT NULL CHECK (length(file_name) BETWEEN 1 AND 255),
        content_type text NOT NULL CHECK (length(content_type) <= 255),
        size_bytes bigint NOT NULL CHECK (size_bytes > 0 AND size_bytes <= 10485760),
        sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
        storage_key text NOT NULL,
        uploaded_by_member_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT attachments_issue_fk FOREIGN KEY (org_id, issue_id) REFERENCES issues(org_id, id) ON DELETE CASCADE,
        CONSTRAINT attachments_uploaded_by_fk FOREIGN KEY (org_id, uploaded_by_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED
      );
      CREATE INDEX attachments_issue_idx ON attachments (org_id, issue_id, created_at);
      CREATE UNIQUE INDEX attachments_storage_key_uq ON attachments (storage_key);

      -- Durable removal of stored objects: rows are written in the same transaction as the delete,
      -- and the worker removes the objects and retries failures.
      CREATE TABLE storage_deletions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        storage_key text NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX storage_deletions_due_idx ON storage_deletions (next_attempt_at);

      -- Storage objects of attachments removed by a cascade (issue, project or organization delete)
      -- are queued for removal too.
      CREATE FUNCTION attachments_queue_storage_deletion() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO storage_deletions (storage_key) VALUES (OLD.storage_key);
        RETURN OLD;
      END $$;
      CREATE TRIGGER attachments_queue_storage_deletion AFTER DELETE ON attachments
        FOR EACH ROW EXECUTE FUNCTION attachments_queue_storage_deletion();
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TRIGGER IF EXISTS attachments_queue_storage_deletion ON attachments;
      DROP FUNCTION IF EXISTS attachments_queue_storage_deletion();
      DROP TABLE IF EXISTS storage_deletions, attachments, activity_events, issue_dependencies, comment_mentions, comments, issue_labels, issue_assignees CASCADE;
      ALTER TABLE issues
        DROP COLUMN IF EXISTS assignee_id, DROP COLUMN IF EXISTS team_id, DROP COLUMN IF EXISTS milestone_id, DROP COLUMN IF EXISTS parent_id,
        DROP COLUMN IF EXISTS start_date, DROP COLUMN IF EXISTS due_date, DROP COLUMN IF EXISTS completed_at,
        DROP COLUMN IF EXISTS recurrence_type, DROP COLUMN IF EXISTS recurrence_interval, DROP COLUMN IF EXISTS recurrence_days,
        DROP COLUMN IF EXISTS recurrence_mode, DROP COLUMN IF EXISTS recurrence_time, DROP COLUMN IF EXISTS recurrence_timezone,
        DROP COLUMN IF EXISTS recurrence_next_run_at, DROP COLUMN IF EXISTS recurrence_source_id;
      DROP TABLE IF EXISTS milestones CASCADE;
    `);
  }
}
