import type { Actor } from '../../../../common/auth/principal';
import type { UpdateMilestoneDto } from './update-milestone.dto';

export class UpdateMilestoneCommand {
  constructor(
    readonly actor: Actor,
    readonly milestoneId: string,
    readonly dto: UpdateMilestoneDto,
  ) {}
}
