import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import type { Queue } from 'bull';
import { Clock } from '../../common/clock/clock';
import { RECURRENCE_QUEUE, RECURRENCE_SWEEP } from './recurrence.constants';

/** Every minute: enqueue the scheduled-recurrence sweep. The job id is per minute, so several workers enqueue it once. */
@Injectable()
export class RecurrenceScheduler {
  constructor(
    @InjectQueue(RECURRENCE_QUEUE) private readonly queue: Queue,
    private readonly clock: Clock,
  ) {}

  @Cron(CronExpression.EVERY_MINUTE)
  async enqueueSweep(): Promise<void> {
    const minute = this.clock.now().toISOString().slice(0, 16);
    await this.queue.add(RECURRENCE_SWEEP, {}, { jobId: `${RECURRENCE_SWEEP}:${minute}`, removeOnComplete: 100, removeOnFail: 100 });
  }
}
