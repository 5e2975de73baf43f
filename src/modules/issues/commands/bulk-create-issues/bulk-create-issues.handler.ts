import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { DomainError, Errors } from '../../../../common/errors/domain-error';
import { DomainEvents } from '../../../../common/events/domain-events';
import type { IssueEntity } from '../../entities/issue.entity';
import { type ParsedIssueFields, parseIssueFields } from '../../issue-input';
import { stageIssueActivity } from '../../issue-events';
import { IssueReader } from '../../issue.reader';
import { isTerminal, IssueWriter } from '../../issue-writer.service';
import type { IssueBulkResponse } from '../../issues.response';
import { BulkCreateIssuesCommand } from './bulk-create-issues.command';

export const BULK_MAX = 50;

/** Creates 1..50 issues in ONE transaction: every item valid and every target writable, or nothing. */
@CommandHandler(BulkCreateIssuesCommand)
export class BulkCreateIssuesHandler implements ICommandHandler<BulkCreateIssuesCommand> {
  constructor(
    private readonly db: DataSource,
    private readonly writer: IssueWriter,
    private readonly reader: IssueReader,
    private readonly events: DomainEvents,
  ) {}

  async execute({ actor, dto }: BulkCreateIssuesCommand): Promise<IssueBulkResponse> {
    const items: unknown = dto.issues;
    if (!Array.isArray(items)) throw Errors.validation('issues must be an array of 1 to 50 issues');
    if (items.length < 1 || items.length > BULK_MAX) throw Errors.validation(`issues must hold 1 to ${BULK_MAX} issues (got ${items.length})`);
    const parsed: ParsedIssueFields[] = items.map((raw, n) => {
      if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw Errors.validation(`issues[${n}] must be an object`);
      return prefixed(n, () => parseIssueFields(raw as Record<string, unknown>, 'create'));
    });
    for (const target of new Set(parsed.map((f) => f.projectId ?? null))) await this.writer.assertCanWriteTarget(actor, target);
    const { responses } = await this.db.transaction(async (m) => {
      await this.writer.assertPlan(m, actor.orgId, parsed.filter((f) => !isTerminal(f.status ?? 'backlog')).length);
      const out: IssueEntity[] = [];
      for (const [n, f] of parsed.entries()) out.push(await prefixedAsync(n, () => this.writer.create(m, actor, f)));
      for (const issue of out)
        await stageIssueActivity(this.events, m, actor, issue, 'issue.created', { number: issue.number, title: issue.title, bulk: true });
      return { created: out, responses: await this.reader.toResponses(actor.orgId, out, m) };
    });
    return { issues: responses, count: responses.length };
  }
}

/** Names the failing item in 400 messages. */
function prefixed<T>(n: number, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw relabel(n, e);
  }
}
async function prefixedAsync<T>(n: number, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw relabel(n, e);
  }
}
function relabel(n: number, e: unknown): unknown {
  if (e instanceof DomainError && e.status === 400) return new DomainError(400, e.code, `issues[${n}]: ${e.message}`, { ...e.extra, index: n });
  return e;
}
