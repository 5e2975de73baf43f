import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { InitiativeLinks } from '../../initiative-links.service';
import type { SuccessResponse } from '../../initiatives.response';
import { UnlinkTargetMilestoneCommand } from './unlink-target-milestone.command';

/** Same rules as the link (the milestone addressed by UUID). */
@CommandHandler(UnlinkTargetMilestoneCommand)
export class UnlinkTargetMilestoneHandler implements ICommandHandler<UnlinkTargetMilestoneCommand, SuccessResponse> {
  constructor(private readonly links: InitiativeLinks) {}

  async execute({ actor, initiativeId, targetId, milestoneId }: UnlinkTargetMilestoneCommand): Promise<SuccessResponse> {
    await this.links.unlinkMilestone(actor, initiativeId, targetId, milestoneId);
    return { success: true };
  }
}
