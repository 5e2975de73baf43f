import type { HumanPrincipal } from '../../../../common/auth/principal';

export class DeclineInvitationCommand {
  constructor(
    readonly invitee: HumanPrincipal,
    readonly invitationId: string,
  ) {}
}
