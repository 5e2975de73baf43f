import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import type { Queue } from 'bull';
import { MAINTENANCE_QUEUE, PURGE_EXPIRED_SESSIONS } from './maintenance.constants';

/** Hourly sweep. The job id is per hour, so several workers enqueue it only once. */
@Injectable()
export class MaintenanceScheduler {
  constructor(@InjectQueue(MAINTENANCE_QUEUE) private readonly queue: Queue) {}

  @Cron(CronExpression.EVERY_HOUR)
  async enqueuePurge(): Promise<void> {
    const hour = new Date().toISOString().slice(0, 13);
    await this.queue.add(PURGE_EXPIRED_SESSIONS, {}, { jobId: `${PURGE_EXPIRED_SESSIONS}:${hour}`, removeOnComplete: 100, removeOnFail: 100 });
  }
}
