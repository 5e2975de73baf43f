import { Command } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';
import type { NotificationAckEnvelope } from '../../notifications.response';

export class AckNotificationCommand extends Command<NotificationAckEnvelope> {
  constructor(
    readonly actor: Actor,
    readonly notificationId: string,
  ) {
    super();
  }
}
