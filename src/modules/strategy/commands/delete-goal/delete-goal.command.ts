import type { Actor } from '../../../../common/auth/principal';

export class DeleteGoalCommand {
  constructor(
    readonly actor: Actor,
    readonly goalId: string,
  ) {}
}
