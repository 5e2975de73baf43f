import type { Actor } from '../../../../common/auth/principal';

export class DeleteTeamCommand {
  constructor(
    readonly actor: Actor,
    readonly teamId: string,
  ) {}
}
