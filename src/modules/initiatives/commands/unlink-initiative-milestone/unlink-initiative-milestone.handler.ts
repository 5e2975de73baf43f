import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { InitiativeLinks } from '../../initiative-links.service';
import type { SuccessResponse } from '../../initiatives.response';
import { UnlinkInitiativeMilestoneCommand } from './unlink-initiative-milestone.command';

/** Same rules as the link (the milestone addressed by UUID). */
@CommandHandler(UnlinkInitiativeMilestoneCommand)
export class UnlinkInitiativeMilestoneHandler implements ICommandHandler<UnlinkInitiativeMilestoneCommand, SuccessResponse> {
  constructor(private readonly links: InitiativeLinks) {}

  async execute({ actor, initiativeId, milestoneId }: UnlinkInitiativeMilestoneCommand): Promise<SuccessResponse> {
    await this.links.unlinkMilestone(actor, initiativeId, undefined, milestoneId);
    return { success: true };
  }
}
