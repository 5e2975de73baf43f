import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError, Errors } from '../../../../common/errors/domain-error';
import { DomainEvents, IssueActivityEvent, snapshotOf } from '../../../../common/events/domain-events';
import { type ParsedIssueFields, parseIssueFields } from '../../issue-input';
import { IssueReader } from '../../issue.reader';
import { IssueTemplates } from '../../issue-templates';
import { isTerminal, IssueWriter, type PreparedIssue } from '../../issue-writer.service';
import type { IssueBulkResponse } from '../../issues.response';
import { BulkCreateIssuesCommand } from './bulk-create-issues.command';
import { TxRunner } from '../../../../database/tx-runner';

export const BULK_MAX = 50;

/**
 * Creates 1..50 issues in ONE transaction: every item valid and every target writable, or nothing.
 * The targets and plan take one statement, the rows one INSERT per target project (numbered in
 * request order), their links one statement each, their timeline entries one.
 */
@CommandHandler(BulkCreateIssuesCommand)
export class BulkCreateIssuesHandler implements ICommandHandler<BulkCreateIssuesCommand> {
  constructor(
    private readonly tx: TxRunner,
    private readonly writer: IssueWriter,
    private readonly reader: IssueReader,
    private readonly events: DomainEvents,
    private readonly templates: IssueTemplates,
  ) {}

  async execute({ actor, dto }: BulkCreateIssuesCommand): Promise<IssueBulkResponse> {
    const items: unknown = dto.issues;
    if (!Array.isArray(items)) throw Errors.validation('issues must be an array of 1 to 50 issues');
    if (items.length < 1 || items.length > BULK_MAX) throw Errors.validation(`issues must hold 1 to ${BULK_MAX} issues (got ${items.length})`);
    const parsed: ParsedIssueFields[] = items.map((raw, n) => {
      if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw Errors.validation(`issues[${n}] must be an object`);
      return prefixed(n, () => parseIssueFields(raw as Record<string, unknown>, 'create'));
    });
    const projectIds = parsed.map((f) => f.projectId ?? null);
    await this.writer.assertTargetsReadable(actor, projectIds);
    await this.templates.apply(actor, parsed);
    const responses = await this.tx.run(async (m) => {
      const active = parsed.filter((f) => !isTerminal(f.status ?? 'backlog')).length;
      const targets = await this.writer.openTargets(m, actor, projectIds, active);
      const prepared: PreparedIssue[] = [];
      for (const [n, f] of parsed.entries()) prepared.push(await prefixedAsync(n, () => this.writer.prepare(m, actor, f, targets)));
      await this.writer.insert(m, actor, prepared);
      await this.events.stage(
        m,
        ...prepared.map(
          ({ issue }) =>
            new IssueActivityEvent(actor.orgId, issue.id, issue.projectId, actor.memberId, snapshotOf(actor), 'issue.created', {
              number: issue.number,
              title: issue.title,
              bulk: true,
            }),
        ),
      );
      return prepared.map((p) => this.reader.fromKnown(p.issue, this.writer.extrasOf(p, targets)));
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
