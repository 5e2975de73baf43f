import type { HumanPrincipal } from '../../../../common/auth/principal';

export class ReadAllUserNotificationsCommand {
  constructor(readonly principal: HumanPrincipal) {}
}
