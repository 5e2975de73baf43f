import { Process, Processor } from '@nestjs/bull';
import { DateTime } from 'luxon';
import { Logger } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { DomainError } from '../../common/errors/domain-error';
import { AUTOMATION_ACTOR, AUTOMATION_EVENT_ACTOR, DomainEvents, IssueActivityEvent } from '../../common/events/domain-events';
import { PlanService } from '../../common/plan/plan.service';
import { stageIssuesCreated } from '../issues/issue-change-events';
import type { IssueEntity } from '../issues/issues.public';
import { IssuesRepository } from '../issues/issues.repository';
import { nextScheduledRun, recurrenceStateOf } from '../issues/recurrence.rules';
import { RecurrenceRepository } from '../issues/recurrence.repository';
import { RecurrenceService } from '../issues/recurrence.service';
import { RECURRENCE_QUEUE, RECURRENCE_SWEEP } from './recurrence.constants';

export interface SweepResult {
  /** Occurrences created. */
  created: number;
  /** Due runs that created nothing (successor already existed, or the plan limit was reached). */
  skipped: number;
  /** Due runs that failed (left due; retried by the next sweep). */
  failed: number;
}

/**
 * Scheduled recurrence: creates the next occurrence of every schedule-mode issue whose cursor
 * (`recurrence_next_run_at`) is due, while the current occurrence stays open. Bounded batches,
 * `FOR UPDATE SKIP LOCKED` so concurrent workers split the work. Exactly once per occurrence: the
 * successor carries `recurrence_source_id` = the fired occurrence (unique), the fired occurrence's
 * cursor becomes NULL and the successor's cursor is its next slot after `now` (missed slots are
 * not back-filled). Issues of archived projects wait until the project is active again.
 */
@Processor(RECURRENCE_QUEUE)
export class RecurrenceSweepProcessor {
  private readonly logger = new Logger(RecurrenceSweepProcessor.name);

  constructor(
    private readonly db: DataSource,
    private readonly clock: Clock,
    private readonly recurrence: RecurrenceService,
    private readonly plan: PlanService,
    private readonly domain: DomainEvents,
    private readonly occurrences: RecurrenceRepository,
    private readonly issues: IssuesRepository,
  ) {}

  @Process(RECURRENCE_SWEEP)
  async handle(): Promise<SweepResult> {
    return this.sweep(this.clock.now());
  }

  /** One sweep at `now` (callable directly in tests). */
  async sweep(now: Date, opts: { batchSize?: number; maxBatches?: number; orgId?: string } = {}): Promise<SweepResult> {
    const batchSize = opts.batchSize ?? 100;
    const maxBatches = opts.maxBatches ?? 20;
    const total: SweepResult = { created: 0, skipped: 0, failed: 0 };
    for (let b = 0; b < maxBatches; b++) {
      const { picked, result } = await this.db.transaction(async (m) => {
        const rows = await this.occurrences.dueScheduled(now, batchSize, opts.orgId ?? null, m);
        const result: SweepResult = { created: 0, skipped: 0, failed: 0 };
        const createdIssues: IssueEntity[] = [];
        for (const row of rows) {
          const source = await this.issues.findById(row.org_id, row.id, m);
          if (!source) continue;
          await this.occurrences.savepoint('recurrence_sweep_row', m);
          try {
            const outcome = await this.fire(m, source, now);
            await this.occurrences.release('recurrence_sweep_row', m);
            if (outcome) {
              result.created++;
              createdIssues.push(outcome);
            } else result.skipped++;
          } catch (e) {
            await this.occurrences.rollbackTo('recurrence_sweep_row', m);
            result.failed++;
            this.logger.error(`scheduled recurrence of issue ${row.id} failed: ${(e as Error)?.message ?? e}`);
          }
        }
        // staged outside the per-row savepoints: a raw savepoint rollback could not drop a staged event
        for (const issue of createdIssues) await stageIssuesCreated(this.domain, this.issues, m, issue.orgId, [issue.id], AUTOMATION_EVENT_ACTOR);
        for (const issue of createdIssues) {
          await this.domain.stage(
            m,
            new IssueActivityEvent(issue.orgId, issue.id, issue.projectId, null, AUTOMATION_ACTOR, 'issue.created', {
              recurrence_source_id: issue.recurrenceSourceId,
              generated_by: 'recurrence_schedule',
            }),
          );
        }
        return { picked: rows.length, result };
      });
      total.created += result.created;
      total.skipped += result.skipped;
      total.failed += result.failed;
      if (picked < batchSize || result.failed === picked) break;
    }
    if (total.created || total.failed) this.logger.log(`scheduled recurrence: ${total.created} created, ${total.skipped} skipped, ${total.failed} failed`);
    return total;
  }

  /** Fires one due occurrence (row locked by the caller). Returns the successor, or null when none was created. */
  private async fire(m: EntityManager, source: IssueEntity, now: Date): Promise<IssueEntity | null> {
    const state = recurrenceStateOf(source);
    const runAt = source.recurrenceNextRunAt!;
    if (!state) {
      await this.occurrences.setNextRun(source.orgId, source.id, null, m);
      return null;
    }
    const zone = state.recurrenceTimezone ?? 'UTC';
    const dueDate = DateTime.fromJSDate(runAt, { zone }).toISODate()!;
    const after = runAt > now ? runAt : now;
    const next = nextScheduledRun(state, dueDate, after);
    try {
      await this.plan.assertCanAdd(m, source.orgId, 'activeIssues');
    } catch (e) {
      if (!(e instanceof DomainError) || e.status !== 402) throw e;
      // plan full: this occurrence is skipped, the series continues from the same issue
      await this.occurrences.setNextRun(source.orgId, source.id, next?.runAt ?? null, m);
      return null;
    }
    const created = await this.recurrence.createOccurrence(m, source, { dueDate, nextRunAt: next?.runAt ?? null });
    await this.occurrences.setNextRun(source.orgId, source.id, null, m);
    return created;
  }
}
