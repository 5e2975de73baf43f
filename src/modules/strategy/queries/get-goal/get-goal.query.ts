import type { Actor } from '../../../../common/auth/principal';

export class GetGoalQuery {
  constructor(
    readonly actor: Actor,
    readonly goalId: string,
  ) {}
}
