import type { HumanPrincipal } from '../../../../common/auth/principal';

export class ListUserNotificationsQuery {
  constructor(readonly principal: HumanPrincipal) {}
}
