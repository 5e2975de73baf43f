import type { Actor } from '../../../../common/auth/principal';

export class AddTeamMemberCommand {
  constructor(
    readonly actor: Actor,
    readonly teamId: string,
    readonly memberId: string,
  ) {}
}
