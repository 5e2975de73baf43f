import type { HumanPrincipal } from '../../../../common/auth/principal';

export class AcceptInvitationCommand {
  constructor(
    readonly invitee: HumanPrincipal,
    readonly invitationId: string,
  ) {}
}
