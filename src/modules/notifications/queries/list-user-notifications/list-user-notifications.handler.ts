import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { toNotificationResponse } from '../../notifications.mapper';
import { NotificationsReader } from '../../notifications.reader';
import type { UserNotificationList } from '../../notifications.response';
import { UserNotifications } from '../../user-notifications.service';
import { ListUserNotificationsQuery } from './list-user-notifications.query';

export const USER_NOTIFICATIONS_LIMIT = 50;

/** The latest 50 notifications of the user over its organizations: unread first, then newest. */
@QueryHandler(ListUserNotificationsQuery)
export class ListUserNotificationsHandler implements IQueryHandler<ListUserNotificationsQuery, UserNotificationList> {
  constructor(
    private readonly users: UserNotifications,
    private readonly reader: NotificationsReader,
  ) {}

  async execute({ principal }: ListUserNotificationsQuery): Promise<UserNotificationList> {
    const scopes = await this.users.scopes(principal);
    const rows = (await Promise.all(scopes.map((s) => this.reader.latestFor(s, USER_NOTIFICATIONS_LIMIT)))).flat();
    rows.sort(
      (a, b) =>
        Number(a.acknowledged_at !== null) - Number(b.acknowledged_at !== null) ||
        new Date(b.created_at).getTime() - new Date(a.created_at).getTime() ||
        (a.id < b.id ? 1 : -1),
    );
    const shown = rows.slice(0, USER_NOTIFICATIONS_LIMIT);
    return {
      notifications: shown.map((r) => ({ ...toNotificationResponse(r), organization_id: r.org_id, read: r.acknowledged_at !== null })),
      unread: shown.filter((r) => r.acknowledged_at === null).length,
    };
  }
}
