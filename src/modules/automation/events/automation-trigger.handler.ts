import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { EventsHandler, type IEventHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { IssueChangedEvent } from '../../../common/events/domain-events';
import { conditionsMatch, subjectOf, triggersOf } from '../automation-rule.model';
import { AutomationRunner } from '../automation-runner.service';
import { AutomationRuleEntity } from '../entities/automation-rule.entity';

/**
 * Changes made by automation carry `origin.automationDepth` ≥ 1. Rules react only to changes made
 * by members (depth 0): a change made by a rule's action never runs rules again, so rules cannot
 * loop. Another rule that would have matched such a change records a `skipped` run with
 * `automation_depth_limit`, so the guard is visible in its history; a rule's own change is
 * ignored silently.
 */
export const AUTOMATION_MAX_DEPTH = 1;

/**
 * After an issue change commits, in the process that committed it: finds the enabled rules of the
 * organization (org-wide and of the issue's project) whose trigger the change fires and whose
 * conditions hold on the issue after the change, and runs them one after the other (oldest rule
 * first). Non-matching rules leave no history. Never breaks the request that caused the change:
 * failures are recorded on the run and logged.
 */
@Injectable()
@EventsHandler(IssueChangedEvent)
export class AutomationTriggerHandler implements IEventHandler<IssueChangedEvent>, OnModuleDestroy {
  private readonly log = new Logger('Automation');
  private readonly inflight = new Set<Promise<void>>();

  constructor(
    private readonly db: DataSource,
    private readonly runner: AutomationRunner,
  ) {}

  handle(e: IssueChangedEvent): void {
    const p = this.evaluate(e).catch((err) => this.log.error(`Automation for issue ${e.issueId} failed: ${(err as Error)?.stack ?? err}`));
    this.inflight.add(p);
    void p.finally(() => this.inflight.delete(p));
  }

  /** Lets running rules finish before the database pool closes. */
  async onModuleDestroy(): Promise<void> {
    await Promise.allSettled([...this.inflight]);
  }

  private async evaluate(e: IssueChangedEvent): Promise<void> {
    const triggers = triggersOf(e);
    if (!triggers.length || e.after.archived) return;
    const rules = await this.db
      .getRepository(AutomationRuleEntity)
      .createQueryBuilder('r')
      .where('r.orgId = :orgId AND r.enabled AND r.triggerEvent IN (:...triggers)', { orgId: e.orgId, triggers })
      .andWhere('(r.projectId IS NULL OR r.projectId = :projectId)', { projectId: e.after.projectId })
      .orderBy('r.createdAt', 'ASC')
      .addOrderBy('r.id', 'ASC')
      .getMany();
    const subject = subjectOf(e.after);
    for (const rule of rules) {
      if (!conditionsMatch(rule.conditions, subject)) continue;
      if (e.origin.automationRuleId === rule.id) continue; // its own change: nothing to record
      try {
        if (e.origin.automationDepth >= AUTOMATION_MAX_DEPTH) await this.runner.skip(rule, rule.triggerEvent, e, 'automation_depth_limit');
        else await this.runner.run(rule, rule.triggerEvent, e);
      } catch (err) {
        this.log.error(`Automation rule ${rule.id} on issue ${e.issueId} failed: ${(err as Error)?.stack ?? err}`);
      }
    }
  }
}
