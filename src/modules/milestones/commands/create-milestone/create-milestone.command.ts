import type { Actor } from '../../../../common/auth/principal';
import type { CreateMilestoneDto } from './create-milestone.dto';

export class CreateMilestoneCommand {
  constructor(
    readonly actor: Actor,
    readonly projectId: string,
    readonly dto: CreateMilestoneDto,
  ) {}
}
