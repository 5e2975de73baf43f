import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Provider workflow verification as attention (issue 18, src/modules/github): a completed
 * workflow run on a linked pull request's exact head, in a connection's `attention` verification
 * mode, notifies the linked issue's assignees with an in-app `verification.completed`
 * notification (interface.md "Internal event kinds": a notification event). It is acknowledged
 * like every notification, reaches the REST heartbeat's attention through the notifications reader
 * and is what a runner's verified workflow resume consumes. `github_verification_items` stays the
 * record of each projection (one per recipient and exact repository, pull request, run attempt
 * and head); the notification's cause is that item.
 */
export class VerificationNotifications1765760000000 implements MigrationInterface {
  name = 'VerificationNotifications1765760000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE notifications DROP CONSTRAINT notifications_event_type_check,
        ADD CONSTRAINT notifications_event_type_check
          CHECK (event_type IN ('mention.created', 'issue.assigned', 'comment.added', 'issue.status_changed', 'attention.resolved', 'verification.completed'));
      ALTER TABLE notification_preferences DROP CONSTRAINT notification_preferences_event_type_check,
        ADD CONSTRAINT notification_preferences_event_type_check
          CHECK (event_type IN ('mention.created', 'issue.assigned', 'comment.added', 'issue.status_changed', 'attention.resolved', 'verification.completed'));
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DELETE FROM notification_preferences WHERE event_type = 'verification.completed';
      DELETE FROM notifications WHERE event_type = 'verification.completed';
      ALTER TABLE notifications DROP CONSTRAINT notifications_event_type_check,
        ADD CONSTRAINT notifications_event_type_check
          CHECK (event_type IN ('mention.created', 'issue.assigned', 'comment.added', 'issue.status_changed', 'attention.resolved'));
      ALTER TABLE notification_preferences DROP CONSTRAINT notification_preferences_event_type_check,
        ADD CONSTRAINT notification_preferences_event_type_check
          CHECK (event_type IN ('mention.created', 'issue.assigned', 'comment.added', 'issue.status_changed', 'attention.resolved'));
    `);
  }
}
