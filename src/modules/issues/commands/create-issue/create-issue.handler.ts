import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainEvents } from '../../../../common/events/domain-events';
import { parseIssueFields } from '../../issue-input';
import { stageIssueActivity } from '../../issue-events';
import { IssueReader } from '../../issue.reader';
import { IssueTemplates } from '../../issue-templates';
import { isTerminal, IssueWriter } from '../../issue-writer.service';
import type { IssueEnvelope } from '../../issues.response';
import { CreateIssueCommand } from './create-issue.command';
import { TxRunner } from '../../../../database/tx-runner';

/**
 * Creates one issue. Before the transaction: 404 for an unreadable target. In it: the target and
 * plan (one statement; 404/403/402), the number and row (one statement), the timeline entry; the
 * response is built from what the transaction holds.
 */
@CommandHandler(CreateIssueCommand)
export class CreateIssueHandler implements ICommandHandler<CreateIssueCommand> {
  constructor(
    private readonly tx: TxRunner,
    private readonly writer: IssueWriter,
    private readonly reader: IssueReader,
    private readonly events: DomainEvents,
    private readonly templates: IssueTemplates,
  ) {}

  async execute({ actor, dto }: CreateIssueCommand): Promise<IssueEnvelope> {
    const fields = parseIssueFields(dto as Record<string, unknown>, 'create');
    const projectId = fields.projectId ?? null;
    await this.writer.assertTargetsReadable(actor, [projectId]);
    await this.templates.apply(actor, [fields]);
    return this.tx.run(async (m) => {
      const targets = await this.writer.openTargets(m, actor, [projectId], isTerminal(fields.status ?? 'backlog') ? 0 : 1);
      const created = await this.writer.create(m, actor, fields, targets);
      const { issue } = created;
      await stageIssueActivity(this.events, m, actor, issue, 'issue.created', { number: issue.number, title: issue.title });
      return { issue: this.reader.fromKnown(issue, this.writer.extrasOf(created, targets)) };
    });
  }
}
