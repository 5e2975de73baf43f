import type { Actor } from '../../../../common/auth/principal';

export class UnlinkInitiativeMilestoneCommand {
  constructor(
    readonly actor: Actor,
    readonly initiativeId: string,
    readonly milestoneId: string,
  ) {}
}
