import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { InitiativeLinks } from '../../initiative-links.service';
import { InitiativeScope } from '../../initiative-scope.service';
import type { SuccessResponse } from '../../initiatives.response';
import { UnlinkInitiativeIssueCommand } from './unlink-initiative-issue.command';

/** Same rules as the link (the issue addressed by UUID). */
@CommandHandler(UnlinkInitiativeIssueCommand)
export class UnlinkInitiativeIssueHandler implements ICommandHandler<UnlinkInitiativeIssueCommand, SuccessResponse> {
  constructor(
    private readonly scope: InitiativeScope,
    private readonly links: InitiativeLinks,
  ) {}

  async execute({ actor, initiativeId, issueId }: UnlinkInitiativeIssueCommand): Promise<SuccessResponse> {
    await this.links.unlinkIssue(actor, initiativeId, undefined, (ini, m) => this.scope.issueById(actor, ini, issueId, m));
    return { success: true };
  }
}
