import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import type { Queue } from 'bull';
import { ATTACHMENTS_QUEUE, PROCESS_STORAGE_DELETIONS } from './attachments.constants';

/** Every minute; the job id is per minute, so several workers enqueue the sweep only once. */
@Injectable()
export class StorageDeletionScheduler {
  constructor(@InjectQueue(ATTACHMENTS_QUEUE) private readonly queue: Queue) {}

  @Cron(CronExpression.EVERY_MINUTE)
  async enqueueSweep(): Promise<void> {
    const minute = new Date().toISOString().slice(0, 16);
    await this.queue.add(PROCESS_STORAGE_DELETIONS, {}, { jobId: `${PROCESS_STORAGE_DELETIONS}:${minute}`, removeOnComplete: 100, removeOnFail: 100 });
  }
}
