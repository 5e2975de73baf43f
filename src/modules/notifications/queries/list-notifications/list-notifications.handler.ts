import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { listResponse, parsePage } from '../../../../common/http/list';
import { toNotificationResponse } from '../../notifications.mapper';
import { NotificationsReader } from '../../notifications.reader';
import { ListNotificationsQuery } from './list-notifications.query';

/** GET /notifications: the caller's unread notifications it can still see, newest first (both list shapes). */
@QueryHandler(ListNotificationsQuery)
export class ListNotificationsHandler implements IQueryHandler<ListNotificationsQuery> {
  constructor(private readonly reader: NotificationsReader) {}

  async execute({ actor, query }: ListNotificationsQuery): Promise<Record<string, unknown>> {
    const page = parsePage(query);
    const { items, total } = await this.reader.unreadFor(actor, page);
    return listResponse('notifications', items.map(toNotificationResponse), total, page);
  }
}
