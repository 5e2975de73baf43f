import { Process, Processor } from '@nestjs/bull';
import { Logger } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { KpiSyncRunner, RUN_ERRORS } from './kpi-sync-runner.service';
import { KPI_SYNC_QUEUE, KPI_SYNC_SWEEP } from './kpi-syncs.constants';
import { KpiSyncRunsRepository } from './kpi-sync-runs.repository';
import { KpiSyncsRepository, type SyncRow } from './kpi-syncs.repository';
import { recordedFor, SCHEDULED } from './sync-schedule';
import { TxRunner } from '../../database/tx-runner';

export interface KpiSyncSweepResult {
  /** Scheduled runs claimed and executed */
  ran: number;
  succeeded: number;
  failed: number;
  /** Runs left queued/running by a dead worker, closed as `interrupted` */
  interrupted: number;
}

/** Scheduled requests in flight at once per sweep. */
export const SWEEP_CONCURRENCY = 5;

/** Runs left unfinished longer than this are closed as interrupted (a run takes at most seconds). */
export const STALE_RUN_MINUTES = 15;

/**
 * Scheduled KPI HTTP syncs: every published sync whose schedule slot (sync-schedule.ts) has no
 * scheduled run yet gets exactly one. The claim is one short transaction per batch: due syncs
 * `FOR UPDATE SKIP LOCKED` (concurrent workers split them), a `queued` run inserted for the slot
 * (the unique index on (org, sync, recorded_for) of scheduled runs makes a second claim a no-op)
 * and `last_scheduled_slot` moved; the requests run after commit, outside any lock. A missed slot
 * is not back-filled: the next sweep records the current slot.
 */
@Processor(KPI_SYNC_QUEUE)
export class KpiSyncSweepProcessor {
  private readonly logger = new Logger(KpiSyncSweepProcessor.name);

  constructor(
    private readonly tx: TxRunner,
    private readonly syncs: KpiSyncsRepository,
    private readonly runs: KpiSyncRunsRepository,
    private readonly runner: KpiSyncRunner,
    private readonly clock: Clock,
  ) {}

  @Process(KPI_SYNC_SWEEP)
  async handle(): Promise<KpiSyncSweepResult> {
    return this.sweep(this.clock.now());
  }

  /** One sweep at `now` (callable directly in tests; `orgId` limits it to one organization). */
  async sweep(now: Date, opts: { batchSize?: number; maxBatches?: number; orgId?: string } = {}): Promise<KpiSyncSweepResult> {
    const batchSize = opts.batchSize ?? 50;
    const maxBatches = opts.maxBatches ?? 20;
    const result: KpiSyncSweepResult = { ran: 0, succeeded: 0, failed: 0, interrupted: await this.closeStale(now, opts.orgId) };
    for (const schedule of SCHEDULED) {
      const slot = recordedFor(schedule, now);
      for (let b = 0; b < maxBatches; b++) {
        const claimed = await this.claim(schedule, slot, batchSize, opts.orgId);
        // a few requests at a time: one slow provider (up to the time limit) does not hold up the rest
        for (let i = 0; i < claimed.length; i += SWEEP_CONCURRENCY) {
          const runs = await Promise.all(claimed.slice(i, i + SWEEP_CONCURRENCY).map(({ sync, runId }) => this.runner.execute(sync, runId, true)));
          for (const run of runs) {
            result.ran++;
            if (run?.status === 'success') result.succeeded++;
            else result.failed++;
          }
        }
        if (claimed.length < batchSize) break;
      }
    }
    if (result.ran || result.interrupted)
      this.logger.log(`KPI HTTP syncs: ${result.ran} scheduled runs (${result.succeeded} ok, ${result.failed} failed), ${result.interrupted} interrupted`);
    return result;
  }

  private claim(schedule: string, slot: string, batchSize: number, orgId?: string): Promise<Array<{ sync: SyncRow; runId: string }>> {
    return this.tx.run(async (m) => {
      const due = await this.syncs.lockDue(schedule, slot, batchSize, orgId ?? null, m);
      const out: Array<{ sync: SyncRow; runId: string }> = [];
      for (const s of due) {
        const runId = await this.runner.insertRun(m, s, 'schedule', 'queued', slot, null, true);
        await this.syncs.setScheduledSlot(s.org_id, s.id, slot, m);
        if (runId) out.push({ sync: s, runId });
      }
      return out;
    });
  }

  private closeStale(now: Date, orgId?: string): Promise<number> {
    return this.runs.closeStale(now, RUN_ERRORS.interrupted, STALE_RUN_MINUTES, orgId ?? null);
  }
}
