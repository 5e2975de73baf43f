import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { InitiativeLinks } from '../../initiative-links.service';
import { InitiativeScope } from '../../initiative-scope.service';
import type { SuccessResponse } from '../../initiatives.response';
import { UnlinkTargetIssueCommand } from './unlink-target-issue.command';

/** Same rules as the link (the issue addressed by UUID). */
@CommandHandler(UnlinkTargetIssueCommand)
export class UnlinkTargetIssueHandler implements ICommandHandler<UnlinkTargetIssueCommand, SuccessResponse> {
  constructor(
    private readonly scope: InitiativeScope,
    private readonly links: InitiativeLinks,
  ) {}

  async execute({ actor, initiativeId, targetId, issueId }: UnlinkTargetIssueCommand): Promise<SuccessResponse> {
    await this.links.unlinkIssue(actor, initiativeId, targetId, (ini, m) => this.scope.issueById(actor, ini, issueId, m));
    return { success: true };
  }
}
