import { Injectable, Logger } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { Clock } from '../../common/clock/clock';
import { AUTOMATION_MAX_ATTEMPTS, AutomationJobs } from './automation-jobs.service';
import { AutomationRepository } from './automation.repository';

/** Jobs younger than this are left to the process that committed them (it runs them right after commit). */
export const AUTOMATION_DRAIN_GRACE_MS = 10_000;

/**
 * The worker's safety net for the automation outbox: every 30 s, runs the jobs that are still
 * pending after the grace period (the API died right after the commit, or an attempt failed).
 * The claim (FOR UPDATE SKIP LOCKED, row deleted with the runs) makes a concurrent run harmless.
 */
@Injectable()
export class AutomationDrain {
  private readonly log = new Logger('AutomationDrain');

  constructor(
    private readonly repo: AutomationRepository,
    private readonly jobs: AutomationJobs,
    private readonly clock: Clock,
  ) {}

  @Cron(CronExpression.EVERY_30_SECONDS)
  async drainPending(limit = 500, graceMs = AUTOMATION_DRAIN_GRACE_MS): Promise<number> {
    const due = await this.repo.dueJobs(this.clock.now(), graceMs, AUTOMATION_MAX_ATTEMPTS, limit);
    let ran = 0;
    for (const j of due) if (await this.jobs.runJob(j.org_id, j.id)) ran++;
    if (ran) this.log.log(`${ran} pending automation jobs run`);
    return ran;
  }
}
