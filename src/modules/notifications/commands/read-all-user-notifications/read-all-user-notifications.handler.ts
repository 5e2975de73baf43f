import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { NotificationsReader } from '../../notifications.reader';
import type { ReadAllNotificationsResponse } from '../../notifications.response';
import { UserNotifications } from '../../user-notifications.service';
import { ReadAllUserNotificationsCommand } from './read-all-user-notifications.command';

/** Marks every unread notification of the user read, in each of its organizations. */
@CommandHandler(ReadAllUserNotificationsCommand)
export class ReadAllUserNotificationsHandler implements ICommandHandler<ReadAllUserNotificationsCommand, ReadAllNotificationsResponse> {
  constructor(
    private readonly users: UserNotifications,
    private readonly reader: NotificationsReader,
  ) {}

  async execute({ principal }: ReadAllUserNotificationsCommand): Promise<ReadAllNotificationsResponse> {
    let marked = 0;
    for (const scope of await this.users.scopes(principal)) marked += await this.reader.acknowledgeAllIn(scope);
    return { success: true, marked };
  }
}
