import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Errors } from '../../../../common/errors/domain-error';
import { isUuid } from '../../../../common/http/validation';
import { toAckEnvelope } from '../../notifications.mapper';
import type { NotificationAckEnvelope } from '../../notifications.response';
import { NotificationsReader } from '../../notifications.reader';
import { AckNotificationCommand } from './ack-notification.command';

/**
 * POST /notifications/{id}/ack: idempotent. A malformed id is 400 (the contract lists 400 for this
 * body-less route); someone else's, unknown, or no longer readable notifications are 404.
 */
@CommandHandler(AckNotificationCommand)
export class AckNotificationHandler implements ICommandHandler<AckNotificationCommand> {
  constructor(private readonly reader: NotificationsReader) {}

  async execute({ actor, notificationId }: AckNotificationCommand): Promise<NotificationAckEnvelope> {
    if (!isUuid(notificationId)) throw Errors.validation('notificationId must be a notification id (UUID)');
    const acked = await this.reader.acknowledge(actor, notificationId.toLowerCase());
    if (!acked) throw Errors.notFound('Notification not found');
    return toAckEnvelope(acked);
  }
}
