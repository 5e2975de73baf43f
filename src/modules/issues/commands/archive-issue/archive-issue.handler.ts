import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { DomainEvents } from '../../../../common/events/domain-events';
import { stageIssueChanged } from '../../issue-change-events';
import { stageIssueActivity } from '../../issue-events';
import { IssueReader } from '../../issue.reader';
import { isTerminal, IssueWriter } from '../../issue-writer.service';
import { IssuesRepository } from '../../issues.repository';
import type { IssueEnvelope } from '../../issues.response';
import { ArchiveIssueCommand } from './archive-issue.command';
import { TxRunner } from '../../../../database/tx-runner';

/**
 * Archives or unarchives an issue (edit access). Repeating it changes nothing and publishes
 * nothing; unarchiving an open issue counts against the plan's active issues again.
 */
@CommandHandler(ArchiveIssueCommand)
export class ArchiveIssueHandler implements ICommandHandler<ArchiveIssueCommand> {
  constructor(
    private readonly tx: TxRunner,
    private readonly access: AccessPolicyService,
    private readonly writer: IssueWriter,
    private readonly reader: IssueReader,
    private readonly issues: IssuesRepository,
    private readonly domain: DomainEvents,
  ) {}

  async execute({ actor, issueId, archived }: ArchiveIssueCommand): Promise<IssueEnvelope> {
    await this.access.assertIssueWrite(actor, issueId, 'edit');
    const { response } = await this.tx.run(async (m) => {
      let issue = await this.issues.lockById(actor.orgId, issueId, m);
      if (!issue) throw Errors.notFound('Issue not found');
      const changed = (issue.archivedAt !== null) !== archived;
      if (changed) {
        if (!archived && !isTerminal(issue.status)) await this.writer.assertPlan(m, actor.orgId, 1);
        const now = new Date();
        const before = (await this.issues.facts(actor.orgId, [issueId], m)).get(issueId)!;
        await this.issues.update(actor.orgId, issueId, { archivedAt: archived ? now : null, updatedAt: now }, m);
        await stageIssueChanged(this.domain, this.issues, m, actor.orgId, issueId, archived ? 'archived' : 'unarchived', actor, before, ['archived_at']);
        issue = (await this.issues.findById(actor.orgId, issueId, m))!;
        await stageIssueActivity(this.domain, m, actor, issue, archived ? 'issue.archived' : 'issue.unarchived');
      }
      return { response: await this.reader.toResponse(actor.orgId, issue, m) };
    });
    return { issue: response };
  }
}
