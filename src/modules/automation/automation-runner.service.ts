import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { type EntityManager } from 'typeorm';
import { automationActor } from '../../common/auth/principal';
import { Clock } from '../../common/clock/clock';
import { DomainError } from '../../common/errors/domain-error';
import { AUTOMATION_ACTOR, type ChangeOrigin, DomainEvents, IssueActivityEvent, type IssueChangedEvent } from '../../common/events/domain-events';
import { CommentWriter } from '../comments/comment-writer.service';
import { IssueLabelWriter } from '../issue-labels/issue-label-writer.service';
import { stageIssueActivity } from '../issues/issue-events';
import { UpdateIssueCommand, type UpdateIssueDto } from '../issues/issues.public';
import { IssuesRepository } from '../issues/issues.repository';
import { buildAutomationPayload } from './automation-payload';
import type { Action, TriggerEvent } from './automation-rule.model';
import { AUTOMATION_WEBHOOKS, type AutomationWebhooks } from './automation-webhooks.port';
import { AutomationRepository } from './automation.repository';
import type { AutomationRuleEntity, RunStatus } from './entities/automation-rule.entity';
import { MAX_RUNS_SHOWN } from './queries/list-automation-rule-runs/list-automation-rule-runs.handler';
import { TxRunner } from '../../database/tx-runner';

/** Field actions, merged into one issue update (one transaction through the command bus). */
const FIELD_ACTIONS = new Set<Action['type']>(['set_status', 'set_assignee', 'set_priority', 'close_issue']);

class ActionFailed extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

/**
 * Runs one matched rule's actions for one issue change, as the automation actor (no member,
 * recorded as "Automation"; see `automationActor`), and records the run, all in the caller's
 * transaction (the automation job's claim, see AutomationJobs), so the run and its effects commit
 * once or not at all.
 *
 * 1. Field actions (`set_status`, `close_issue` → `done`, `set_assignee`, `set_priority`; the last
 *    of a kind wins) become ONE UpdateIssueCommand with origin depth + 1, run in a savepoint of the
 *    caller's transaction, so the issue rules (statuses of the issue's project, assignees who can
 *    read it, plan limits) apply exactly as for members, with the usual domain events and activity.
 * 2. `add_label`, `post_comment` and `send_webhook` (a webhook outbox row) run in a second
 *    savepoint together with the success record: they commit or roll back together.
 * A failure stops the run: it is recorded `failed` with a code and the types that completed.
 */
@Injectable()
export class AutomationRunner {
  private readonly log = new Logger('Automation');

  constructor(
    private readonly tx: TxRunner,
    private readonly commands: CommandBus,
    private readonly domain: DomainEvents,
    private readonly repo: AutomationRepository,
    private readonly issues: IssuesRepository,
    private readonly labels: IssueLabelWriter,
    private readonly comments: CommentWriter,
    private readonly clock: Clock,
    @Inject(AUTOMATION_WEBHOOKS) private readonly webhooks: AutomationWebhooks,
  ) {}

  /** Runs the rule in `tx` (the job's claim), or in a transaction of its own without one. */
  async run(rule: AutomationRuleEntity, trigger: TriggerEvent, e: IssueChangedEvent, tx?: EntityManager): Promise<void> {
    if (!tx) return this.tx.run((m) => this.run(rule, trigger, e, m));
    const actor = automationActor(e.orgId, rule.id);
    const origin: ChangeOrigin = { automationRuleId: rule.id, automationDepth: e.origin.automationDepth + 1 };
    const startedAt = this.clock.now();
    // the rule was matched from a snapshot: since then it may have been deleted or disabled (then
    // it does nothing) or the issue may have left the rule's project (then it must not act on it)
    const live = await this.repo.live(e.orgId, rule.id, e.issueId, tx);
    if (!live?.enabled) return;
    if (live.issue_exists && live.project_id && live.project_id !== live.issue_project_id) return this.skip(rule, trigger, e, 'issue_out_of_scope', tx);
    const done: string[] = [];
    try {
      const fields = rule.actions.filter((a) => FIELD_ACTIONS.has(a.type));
      if (fields.length) {
        await this.step(() => this.commands.execute(new UpdateIssueCommand(actor, e.issueId, updateOf(fields), origin, tx)));
        done.push(...fields.map((a) => a.type));
      }
      await tx.transaction(async (m) => {
        const inTx: string[] = [];
        const issue = await this.issues.findById(e.orgId, e.issueId, m);
        if (!issue) throw new ActionFailed('issue_not_found');
        if (live.project_id && issue.projectId !== live.project_id) throw new ActionFailed('issue_out_of_scope');
        const ref = { id: issue.id, projectId: issue.projectId };
        for (const a of rule.actions) {
          if (a.type === 'add_label') {
            const label = await this.labels.findLabel(m, e.orgId, a.value);
            if (!label) throw new ActionFailed('label_not_found');
            if (await this.labels.add(m, e.orgId, issue.id, label.id)) {
              await this.domain.stage(
                m,
                new IssueActivityEvent(e.orgId, issue.id, ref.projectId, null, AUTOMATION_ACTOR, 'label.added', { label_id: label.id, label_name: label.name }),
              );
            }
          } else if (a.type === 'post_comment') {
            const { comment } = await this.step(() => this.comments.create(m, actor, ref, { body: a.value }, { origin }));
            await stageIssueActivity(this.domain, m, actor, ref, 'comment.created', { comment_id: comment.id ?? null });
          } else if (a.type === 'send_webhook') {
            const body = buildAutomationPayload(await this.repo.payloadIssue(e.orgId, e.issueId, m), e, trigger, rule);
            await this.step(
              () => this.webhooks.enqueueAutomationAction(m, { orgId: e.orgId, webhookId: a.webhook_id, ruleId: rule.id, body }),
              'webhook_unavailable',
            );
          } else continue;
          inTx.push(a.type);
        }
        await this.record(m, { rule, trigger, e, status: 'success', errorCode: null, actions: [...done, ...inTx], startedAt });
      });
    } catch (err) {
      const code = err instanceof ActionFailed ? err.code : 'internal_error';
      if (!(err instanceof ActionFailed)) this.log.error(`Automation rule ${rule.id} on issue ${e.issueId} failed: ${(err as Error)?.stack ?? err}`);
      await this.record(tx, { rule, trigger, e, status: 'failed', errorCode: code, actions: done, startedAt });
    }
  }

  /** A matched rule that was not run (e.g. the change came from automation: loop guard). */
  async skip(rule: AutomationRuleEntity, trigger: TriggerEvent, e: IssueChangedEvent, errorCode: string, tx?: EntityManager): Promise<void> {
    await this.record(tx, { rule, trigger, e, status: 'skipped', errorCode, actions: [], startedAt: this.clock.now() });
  }

  /** Runs one step; an expected (domain) failure becomes ActionFailed with its code. */
  private async step<T>(fn: () => Promise<T>, code?: string): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof DomainError) throw new ActionFailed(code ?? err.code);
      throw err;
    }
  }

  /** Stores the run (once per rule and event) and keeps only the newest runs of the rule. */
  private async record(
    m: EntityManager | undefined,
    r: {
      rule: AutomationRuleEntity;
      trigger: TriggerEvent;
      e: IssueChangedEvent;
      status: RunStatus;
      errorCode: string | null;
      actions: string[];
      startedAt: Date;
    },
  ): Promise<void> {
    await this.repo.recordRun(
      {
        orgId: r.e.orgId,
        id: randomUUID(),
        ruleId: r.rule.id,
        eventId: r.e.id,
        triggerEvent: r.trigger,
        issueId: r.e.issueId,
        status: r.status,
        actions: [...r.actions],
        errorCode: r.errorCode,
        automationDepth: r.e.origin.automationDepth,
        startedAt: r.startedAt,
        finishedAt: this.clock.now(),
      },
      MAX_RUNS_SHOWN,
      m,
    );
  }
}

/** The issue update of the field actions (the last action of a kind wins). */
function updateOf(actions: Action[]): UpdateIssueDto {
  const dto: Record<string, unknown> = {};
  for (const a of actions) {
    if (a.type === 'set_status') dto.status = a.value;
    else if (a.type === 'close_issue') dto.status = 'done';
    else if (a.type === 'set_priority') dto.priority = a.value;
    else if (a.type === 'set_assignee') dto.assigneeIds = a.value ? [a.value] : [];
  }
  return dto as UpdateIssueDto;
}
