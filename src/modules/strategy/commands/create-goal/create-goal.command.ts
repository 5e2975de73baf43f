import type { Actor } from '../../../../common/auth/principal';
import type { CreateGoalDto } from './create-goal.dto';

export class CreateGoalCommand {
  constructor(
    readonly actor: Actor,
    readonly dto: CreateGoalDto,
  ) {}
}
