import type { HumanPrincipal } from '../../../../common/auth/principal';

export class ReadUserNotificationCommand {
  constructor(
    readonly principal: HumanPrincipal,
    readonly notificationId: string,
  ) {}
}
