import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { DomainEvents } from '../../../../common/events/domain-events';
import { stageIssueChanged } from '../../issue-change-events';
import { IssuesRepository } from '../../issues.repository';
import type { IssuesSuccessResponse } from '../../issues.response';
import { DeleteIssueCommand } from './delete-issue.command';
import { TxRunner } from '../../../../database/tx-runner';

/**
 * Permanently deletes an issue: organization owners and admins only (a member is refused with 403
 * even with edit access). Comments, assignees, labels, dependencies, attachments rows and its
 * activity go with it (cascades); sub-tasks stay, without parent.
 */
@CommandHandler(DeleteIssueCommand)
export class DeleteIssueHandler implements ICommandHandler<DeleteIssueCommand> {
  constructor(
    private readonly tx: TxRunner,
    private readonly access: AccessPolicyService,
    private readonly domain: DomainEvents,
    private readonly issues: IssuesRepository,
  ) {}

  async execute({ actor, issueId }: DeleteIssueCommand): Promise<IssuesSuccessResponse> {
    await this.access.assertIssueRead(actor, issueId);
    this.access.assertOrgAdmin(actor, 'Only organization owners and admins can delete issues permanently');
    await this.tx.run(async (m) => {
      const before = (await this.issues.facts(actor.orgId, [issueId], m)).get(issueId);
      if (!before) return; // deleted concurrently: the same outcome
      await this.issues.delete(actor.orgId, issueId, m);
      await stageIssueChanged(this.domain, this.issues, m, actor.orgId, issueId, 'deleted', actor, before, []);
    });
    return { success: true };
  }
}
