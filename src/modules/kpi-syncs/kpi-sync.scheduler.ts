import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import type { Queue } from 'bull';
import { Clock } from '../../common/clock/clock';
import { KPI_SYNC_QUEUE, KPI_SYNC_SWEEP } from './kpi-syncs.constants';

/** Every minute: enqueue the KPI HTTP sync sweep. The job id is per minute, so several workers enqueue it once. */
@Injectable()
export class KpiSyncScheduler {
  constructor(
    @InjectQueue(KPI_SYNC_QUEUE) private readonly queue: Queue,
    private readonly clock: Clock,
  ) {}

  @Cron(CronExpression.EVERY_MINUTE)
  async enqueueSweep(): Promise<void> {
    const minute = this.clock.now().toISOString().slice(0, 16);
    await this.queue.add(KPI_SYNC_SWEEP, {}, { jobId: `${KPI_SYNC_SWEEP}:${minute}`, removeOnComplete: 100, removeOnFail: 100 });
  }
}
