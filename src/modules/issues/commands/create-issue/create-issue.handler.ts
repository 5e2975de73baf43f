import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { DomainEvents } from '../../../../common/events/domain-events';
import { parseIssueFields } from '../../issue-input';
import { stageIssueActivity } from '../../issue-events';
import { IssueReader } from '../../issue.reader';
import { isTerminal, IssueWriter } from '../../issue-writer.service';
import type { IssueEnvelope } from '../../issues.response';
import { CreateIssueCommand } from './create-issue.command';

/** Creates one issue: access to the target, plan, number, row and activity in one transaction. */
@CommandHandler(CreateIssueCommand)
export class CreateIssueHandler implements ICommandHandler<CreateIssueCommand> {
  constructor(
    private readonly db: DataSource,
    private readonly writer: IssueWriter,
    private readonly reader: IssueReader,
    private readonly events: DomainEvents,
  ) {}

  async execute({ actor, dto }: CreateIssueCommand): Promise<IssueEnvelope> {
    const fields = parseIssueFields(dto as Record<string, unknown>, 'create');
    await this.writer.assertCanWriteTarget(actor, fields.projectId ?? null);
    const { response } = await this.db.transaction(async (m) => {
      await this.writer.assertPlan(m, actor.orgId, isTerminal(fields.status ?? 'backlog') ? 0 : 1);
      const created = await this.writer.create(m, actor, fields);
      await stageIssueActivity(this.events, m, actor, created, 'issue.created', { number: created.number, title: created.title });
      return { issue: created, response: await this.reader.toResponse(actor.orgId, created, m) };
    });
    return { issue: response };
  }
}
