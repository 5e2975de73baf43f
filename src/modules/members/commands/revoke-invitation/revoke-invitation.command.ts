import type { Actor } from '../../../../common/auth/principal';

export class RevokeInvitationCommand {
  constructor(
    readonly actor: Actor,
    readonly invitationId: string,
  ) {}
}
