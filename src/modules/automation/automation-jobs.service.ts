import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { DataSource, type EntityManager, type EntitySubscriberInterface, type TransactionCommitEvent, type TransactionRollbackEvent } from 'typeorm';
import { type DomainEvent, DomainEvents, IssueChangedEvent } from '../../common/events/domain-events';
import type { Tx } from '../../database/sql.service';
import { conditionsMatch, subjectOf, triggersOf } from './automation-rule.model';
import { AutomationRunner } from './automation-runner.service';
import { AutomationRepository, type RuleRow } from './automation.repository';
import { TxRunner } from '../../database/tx-runner';

/**
 * Changes made by automation carry `origin.automationDepth` ≥ 1. Rules react only to changes made
 * by members (depth 0): a change made by a rule's action never runs rules again, so rules cannot
 * loop. Another rule that would have matched such a change records a `skipped` run with
 * `automation_depth_limit`, so the guard is visible in its history; a rule's own change is
 * ignored silently.
 */
export const AUTOMATION_MAX_DEPTH = 1;

/** A job is attempted at most this often (each failed attempt rolled back all of its runs). */
export const AUTOMATION_MAX_ATTEMPTS = 10;

const HELD = Symbol('automationJobsAfterCommit');
type Held = { [HELD]?: Array<{ orgId: string; id: string }> };

/** The staged event back from its job row. */
function eventOf(json: Record<string, unknown>): IssueChangedEvent {
  return Object.assign(Object.create(IssueChangedEvent.prototype) as IssueChangedEvent, json, { at: new Date(json.at as string) });
}

/**
 * The automation outbox, so that a committed issue change always gets its rule runs, exactly once:
 * 1. in the writer's transaction (a DomainEvents subscriber): an issue change whose triggers fire
 *    an enabled rule of the organization (org-wide or of the issue's project) whose conditions hold
 *    on the issue after the change writes one `automation_jobs` row (id = the event id);
 * 2. right after that transaction commits, this process runs the job (`runJob`);
 * 3. the worker's drain (AutomationDrain) runs the jobs nobody ran (process killed, run failed).
 * A run claims its row (FOR UPDATE SKIP LOCKED) and, in that one transaction, evaluates the rules
 * again (oldest first; non-matching rules leave no history), runs each (AutomationRunner: the run
 * record, field changes, labels, comments, `send_webhook` outbox rows) and deletes the row. A crash
 * or a failed commit leaves the row for a retry that finds nothing of the first attempt.
 */
@Injectable()
export class AutomationJobs implements OnModuleInit, OnModuleDestroy, EntitySubscriberInterface {
  private readonly log = new Logger('Automation');
  private readonly inflight = new Set<Promise<void>>();

  constructor(
    private readonly db: DataSource,
    private readonly tx: TxRunner,
    private readonly events: DomainEvents,
    private readonly repo: AutomationRepository,
    private readonly runner: AutomationRunner,
  ) {}

  onModuleInit(): void {
    this.events.register({ onStaged: (m, e) => this.onStagedAll(m, [e]), onStagedAll: (m, events) => this.onStagedAll(m, events) });
    if (!this.db.subscribers.includes(this)) this.db.subscribers.push(this);
  }

  /** Lets running jobs finish before the database pool closes. */
  async onModuleDestroy(): Promise<void> {
    await Promise.allSettled([...this.inflight]);
  }

  /** The issue changes among `events` that fire a rule: one rule look-up per organization, then one job row per firing change. */
  async onStagedAll(m: EntityManager, events: DomainEvent[]): Promise<void> {
    const changes = events.filter((e): e is IssueChangedEvent => e instanceof IssueChangedEvent && !e.after.archived && triggersOf(e).length > 0);
    for (const orgId of new Set(changes.map((e) => e.orgId))) {
      if (this.events.presence(m, orgId)?.automationRules === 0) continue; // the writer read that there are none
      const mine = changes.filter((e) => e.orgId === orgId);
      const triggers = [...new Set(mine.flatMap(triggersOf))];
      const projectIds = [...new Set(mine.map((e) => e.after.projectId).filter((p): p is string => !!p))];
      const rules = await this.repo.enabledRulesForAny(orgId, triggers, projectIds, m);
      if (!rules.length) continue;
      for (const e of mine) {
        if (!this.fire(e, rules).length) continue;
        await this.repo.insertJob(e.orgId, e.id, e.issueId, e, m);
        const qr = m.queryRunner;
        const ref = { orgId: e.orgId, id: e.id };
        if (qr?.isTransactionActive) ((qr.data as Held)[HELD] ??= []).push(ref);
        else this.runSoon([ref]);
      }
    }
  }

  afterTransactionCommit(event: TransactionCommitEvent): void {
    const qr = event.queryRunner;
    if (qr.isTransactionActive) return; // a savepoint was released; the outer transaction decides
    const held = (qr.data as Held)[HELD];
    delete (qr.data as Held)[HELD];
    if (held?.length) this.runSoon(held);
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    if (!event.queryRunner.isTransactionActive) delete (event.queryRunner.data as Held)[HELD];
  }

  /** Runs committed jobs in the background, one after the other (a job rolled back in a savepoint is simply not found). */
  private runSoon(refs: Array<{ orgId: string; id: string }>): void {
    const p = (async () => {
      for (const r of refs) await this.runJob(r.orgId, r.id);
    })();
    this.inflight.add(p);
    void p.finally(() => this.inflight.delete(p));
  }

  /**
   * Runs one job if it is still pending and no other run holds it: its rule runs and the removal of
   * the row commit together. Never throws (a failed attempt is counted on the row and retried by
   * the drain). Answers whether this call ran it.
   */
  async runJob(orgId: string, id: string): Promise<boolean> {
    try {
      return await this.tx.run(async (m) => {
        const job = await this.repo.claimJob(orgId, id, m);
        if (!job) return false;
        await this.evaluate(m, eventOf(job.event));
        await this.repo.deleteJob(orgId, id, m);
        return true;
      });
    } catch (err) {
      this.log.error(`Automation job ${id} failed (will be retried): ${(err as Error)?.stack ?? err}`);
      await this.repo.failJob(orgId, id, String((err as Error)?.message ?? err)).catch(() => undefined);
      return false;
    }
  }

  /** The enabled rules the change fires whose conditions hold on the issue after it. */
  private async matching(e: IssueChangedEvent, m: Tx): Promise<RuleRow[]> {
    const triggers = triggersOf(e);
    if (!triggers.length || e.after.archived) return [];
    return this.fire(e, await this.repo.enabledRulesFor(e.orgId, triggers, e.after.projectId, m));
  }

  /** Of enabled `rules` (oldest first), those the change fires: trigger, scope, conditions on the issue after it, not its own change. */
  private fire(e: IssueChangedEvent, rules: RuleRow[]): RuleRow[] {
    const triggers = triggersOf(e);
    const subject = subjectOf(e.after);
    return rules.filter(
      (rule) =>
        triggers.includes(rule.triggerEvent) &&
        (rule.projectId === null || rule.projectId === e.after.projectId) &&
        conditionsMatch(rule.conditions, subject) &&
        e.origin.automationRuleId !== rule.id,
    );
  }

  private async evaluate(m: EntityManager, e: IssueChangedEvent): Promise<void> {
    for (const rule of await this.matching(e, m)) {
      if (e.origin.automationDepth >= AUTOMATION_MAX_DEPTH) await this.runner.skip(rule, rule.triggerEvent, e, 'automation_depth_limit', m);
      else await this.runner.run(rule, rule.triggerEvent, e, m);
    }
  }
}
