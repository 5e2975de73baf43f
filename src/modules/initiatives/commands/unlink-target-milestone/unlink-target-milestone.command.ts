import type { Actor } from '../../../../common/auth/principal';

export class UnlinkTargetMilestoneCommand {
  constructor(
    readonly actor: Actor,
    readonly initiativeId: string,
    readonly targetId: string,
    readonly milestoneId: string,
  ) {}
}
