import type { Actor } from '../../../../common/auth/principal';

export class DeleteMilestoneCommand {
  constructor(
    readonly actor: Actor,
    readonly milestoneId: string,
  ) {}
}
