import type { Actor } from '../../../../common/auth/principal';
import type { InvitableRole } from '../../entities/invitation.entity';

export class CreateInvitationCommand {
  constructor(
    readonly actor: Actor,
    readonly email: string,
    readonly role: InvitableRole,
  ) {}
}
