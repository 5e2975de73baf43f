import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import { Cron } from '@nestjs/schedule';
import type { Queue } from 'bull';
import { Clock } from '../../common/clock/clock';
import { MAINTENANCE_JOB, WEBHOOKS_QUEUE } from './webhooks.constants';

/** Hourly (at minute 23): enqueue the webhook maintenance job. The job id is per hour, so several workers enqueue it once. */
@Injectable()
export class WebhookMaintenanceScheduler {
  constructor(
    @InjectQueue(WEBHOOKS_QUEUE) private readonly queue: Queue,
    private readonly clock: Clock,
  ) {}

  @Cron('0 23 * * * *')
  async enqueue(): Promise<void> {
    const hour = this.clock.now().toISOString().slice(0, 13);
    await this.queue.add(MAINTENANCE_JOB, {}, { jobId: `${MAINTENANCE_JOB}:${hour}`, removeOnComplete: 100, removeOnFail: 100 });
  }
}
