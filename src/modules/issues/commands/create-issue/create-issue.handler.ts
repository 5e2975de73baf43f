import { CommandHandler, EventBus, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { parseIssueFields } from '../../issue-input';
import { publishIssueActivity } from '../../issue-events';
import { IssueReader } from '../../issue.reader';
import { isTerminal, IssueWriter } from '../../issue-writer.service';
import type { IssueEnvelope } from '../../issues.response';
import { CreateIssueCommand } from './create-issue.command';

/** Creates one issue: access to the target, plan, number and row in one transaction; activity after commit. */
@CommandHandler(CreateIssueCommand)
export class CreateIssueHandler implements ICommandHandler<CreateIssueCommand> {
  constructor(
    private readonly db: DataSource,
    private readonly writer: IssueWriter,
    private readonly reader: IssueReader,
    private readonly events: EventBus,
  ) {}

  async execute({ actor, dto }: CreateIssueCommand): Promise<IssueEnvelope> {
    const fields = parseIssueFields(dto as Record<string, unknown>, 'create');
    await this.writer.assertCanWriteTarget(actor, fields.projectId ?? null);
    const { issue, response } = await this.db.transaction(async (m) => {
      await this.writer.assertPlan(m, actor.orgId, isTerminal(fields.status ?? 'backlog') ? 0 : 1);
      const created = await this.writer.create(m, actor, fields);
      return { issue: created, response: await this.reader.toResponse(actor.orgId, created, m) };
    });
    publishIssueActivity(this.events, actor, issue, 'issue.created', { number: issue.number, title: issue.title });
    return { issue: response };
  }
}
