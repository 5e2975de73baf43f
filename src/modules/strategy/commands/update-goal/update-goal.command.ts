import type { Actor } from '../../../../common/auth/principal';
import type { UpdateGoalDto } from './update-goal.dto';

export class UpdateGoalCommand {
  constructor(
    readonly actor: Actor,
    readonly goalId: string,
    readonly dto: UpdateGoalDto,
  ) {}
}
