import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Notifications: one row per recipient and cause (a comment, or one issue change event), with
 * only the ids and the title snapshot a reader or a heartbeat needs (never comment bodies), and
 * per-member, per-channel preferences. The partial unique index on (org, recipient, cause) makes a
 * replayed event a no-op; the partial index on unread rows serves the hot read (the caller's
 * unread notifications, newest first).
 */
export class Notifications1764200000000 implements MigrationInterface {
  name = 'Notifications1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE notifications (
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        recipient_member_id uuid NOT NULL,
        event_type text NOT NULL CHECK (event_type IN ('mention.created', 'issue.assigned', 'comment.added', 'issue.status_changed')),
        severity text NOT NULL CHECK (severity IN ('info', 'warning', 'critical')),
        action_kind text NOT NULL CHECK (action_kind IN ('resume_agent_thread', 'respond_to_comment', 'start_work', 'review_issue')),
        cause_id uuid,
        issue_id uuid,
        project_id uuid,
        comment_id uuid,
        reply_to_comment_id uuid,
        actor_member_id uuid,
        actor_type text NOT NULL CHECK (actor_type IN ('human', 'agent', 'automation')),
        title text NOT NULL CHECK (length(title) <= 1000),
        metadata jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(metadata) = 'object'),
        created_at timestamptz NOT NULL DEFAULT now(),
        acknowledged_at timestamptz,
        PRIMARY KEY (org_id, id),
        CONSTRAINT notifications_recipient_fk FOREIGN KEY (org_id, recipient_member_id) REFERENCES members(org_id, id) ON DELETE CASCADE,
        CONSTRAINT notifications_issue_fk FOREIGN KEY (org_id, issue_id) REFERENCES issues(org_id, id) ON DELETE CASCADE,
        CONSTRAINT notifications_comment_fk FOREIGN KEY (org_id, comment_id) REFERENCES comments(org_id, id) ON DELETE CASCADE,
        CONSTRAINT notifications_ack_after_create CHECK (acknowledged_at IS NULL OR acknowledged_at >= created_at)
      );
      CREATE UNIQUE INDEX notifications_cause_uq ON notifications (org_id, recipient_member_id, cause_id) WHERE cause_id IS NOT NULL;
      CREATE INDEX notifications_unread_idx ON notifications (org_id, recipient_member_id, created_at DESC, id DESC) WHERE acknowledged_at IS NULL;
      CREATE INDEX notifications_issue_idx ON notifications (org_id, issue_id) WHERE issue_id IS NOT NULL;
      CREATE INDEX notifications_comment_idx ON notifications (org_id, comment_id) WHERE comment_id IS NOT NULL;

      CREATE TABLE notification_preferences (
        org_id uuid NOT NULL,
        member_id uuid NOT NULL,
        channel text NOT NULL CHECK (channel IN ('in_app')),
        event_type text NOT NULL CHECK (event_type IN ('mention.created', 'issue.assigned', 'comment.added', 'issue.status_changed')),
        enabled boolean NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, member_id, channel, event_type),
        CONSTRAINT notification_preferences_member_fk FOREIGN KEY (org_id, member_id) REFERENCES members(org_id, id) ON DELETE CASCADE
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS notification_preferences, notifications CASCADE');
  }
}
