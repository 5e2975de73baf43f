import type { Actor } from '../../../../common/auth/principal';

export class ListTargetMilestonesQuery {
  constructor(
    readonly actor: Actor,
    readonly initiativeId: string,
    readonly targetId: string,
  ) {}
}
