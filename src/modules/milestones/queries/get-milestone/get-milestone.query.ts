import type { Actor } from '../../../../common/auth/principal';

export class GetMilestoneQuery {
  constructor(
    readonly actor: Actor,
    readonly milestoneId: string,
  ) {}
}
