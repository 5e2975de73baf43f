import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { InitiativeLinks } from '../../initiative-links.service';
import { InitiativeScope } from '../../initiative-scope.service';
import type { SuccessResponse } from '../../initiatives.response';
import { UnlinkIssueInitiativeCommand } from './unlink-issue-initiative.command';

/** Issue readable (404), then the initiative-side rules. */
@CommandHandler(UnlinkIssueInitiativeCommand)
export class UnlinkIssueInitiativeHandler implements ICommandHandler<UnlinkIssueInitiativeCommand, SuccessResponse> {
  constructor(
    private readonly access: AccessPolicyService,
    private readonly scope: InitiativeScope,
    private readonly links: InitiativeLinks,
  ) {}

  async execute({ actor, issueId, initiativeId }: UnlinkIssueInitiativeCommand): Promise<SuccessResponse> {
    const issue = await this.access.assertIssueRead(actor, issueId);
    await this.links.unlinkIssue(actor, initiativeId, undefined, (ini) => this.scope.assertIssueInScope(ini, issue));
    return { success: true };
  }
}
