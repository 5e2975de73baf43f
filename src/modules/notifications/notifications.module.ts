import { Module } from '@nestjs/common';
import { MembersModule } from '../members/members.module';
import { ReadAllUserNotificationsHandler } from './commands/read-all-user-notifications/read-all-user-notifications.handler';
import { ReadUserNotificationHandler } from './commands/read-user-notification/read-user-notification.handler';
import { ListUserNotificationsHandler } from './queries/list-user-notifications/list-user-notifications.handler';
import { UserNotificationsController } from './user-notifications.controller';
import { UserNotifications } from './user-notifications.service';
import { AckNotificationHandler } from './commands/ack-notification/ack-notification.handler';
import { UpdateNotificationPreferencesHandler } from './commands/update-notification-preferences/update-notification-preferences.handler';
import { NotificationPreferencesModule } from './notification-preferences.module';
import { NotificationsFanoutModule } from './notifications-fanout.module';
import { NotificationsController } from './notifications.controller';
import { NotificationsReader } from './notifications.reader';
import { GetNotificationPreferencesHandler } from './queries/get-notification-preferences/get-notification-preferences.handler';
import { ListNotificationsHandler } from './queries/list-notifications/list-notifications.handler';

/**
 * Notifications: what a member should look at because of someone else's change.
 *
 * - Creation (NotificationsFanout, after commit, API and worker): mentions (`mention.created`),
 *   assignments (`issue.assigned`), comments on issues you are assigned to and direct replies to
 *   your comments (`comment.added`), status changes of issues you created (`issue.status_changed`);
 *   one per recipient and cause, never for your own action, only if you can read the issue and
 *   have the type switched on in-app. Rows keep ids and the title snapshot, never comment bodies.
 * - Preferences (NotificationPreferences, exported by NotificationPreferencesModule): per channel
 *   (`in_app`) and event type, on by default; muting in-app mentions acknowledges unread mention
 *   notifications and makes the comment writer skip such mentions (`mentions_muted`).
 * - Reading (exported NotificationsReader, reused by the heartbeat):
 *   `unreadFor(actor, { limit, offset })` → `{ items, total }` (newest first) and
 *   `unreadCountsByType(actor)` → `{ total, by_type }`, both filtered in SQL by the caller's
 *   CURRENT access (a notification about an issue the caller can no longer read is hidden);
 *   `unreadSummaryIn(scope, page)` → `{ items, total, counts }`, both in one statement (the heartbeat);
 *   `acknowledge(actor, id)` (idempotent; null when not the caller's or not visible).
 *   Map rows with `toNotificationResponse` (notifications.mapper.ts).
 * - A signed-in human across organizations (UserNotificationsController, `/api/notifications`):
 *   the latest 50 (unread first), read one, read all; each membership read with its live access.
 */
@Module({
  imports: [NotificationPreferencesModule, NotificationsFanoutModule, MembersModule],
  controllers: [NotificationsController, UserNotificationsController],
  providers: [
    NotificationsReader,
    ListNotificationsHandler,
    GetNotificationPreferencesHandler,
    AckNotificationHandler,
    UpdateNotificationPreferencesHandler,
    UserNotifications,
    ListUserNotificationsHandler,
    ReadUserNotificationHandler,
    ReadAllUserNotificationsHandler,
  ],
  exports: [NotificationsReader],
})
export class NotificationsModule {}
