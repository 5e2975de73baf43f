import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Errors } from '../../../../common/errors/domain-error';
import { isUuid } from '../../../../common/http/validation';
import { toAckEnvelope } from '../../notifications.mapper';
import { NotificationsReader } from '../../notifications.reader';
import type { NotificationAckEnvelope } from '../../notifications.response';
import { UserNotifications } from '../../user-notifications.service';
import { ReadUserNotificationCommand } from './read-user-notification.command';

/** Marks one of the user's notifications read (any of its organizations; idempotent); 404 when it has none such. */
@CommandHandler(ReadUserNotificationCommand)
export class ReadUserNotificationHandler implements ICommandHandler<ReadUserNotificationCommand, NotificationAckEnvelope> {
  constructor(
    private readonly users: UserNotifications,
    private readonly reader: NotificationsReader,
  ) {}

  async execute({ principal, notificationId }: ReadUserNotificationCommand): Promise<NotificationAckEnvelope> {
    if (!isUuid(notificationId)) throw Errors.validation('notificationId must be a UUID');
    for (const scope of await this.users.scopes(principal)) {
      const done = await this.reader.acknowledgeIn(scope, notificationId);
      if (done) return toAckEnvelope(done);
    }
    throw Errors.notFound('Notification not found');
  }
}
