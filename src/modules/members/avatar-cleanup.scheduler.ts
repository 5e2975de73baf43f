import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import { Cron } from '@nestjs/schedule';
import type { Queue } from 'bull';
import { AVATARS_QUEUE, PROCESS_AVATAR_CLEANUPS } from './avatars.constants';

/** Every 15 minutes (interface.md "Limits"); the job id names the quarter hour, so several workers enqueue the sweep once. */
@Injectable()
export class AvatarCleanupScheduler {
  constructor(@InjectQueue(AVATARS_QUEUE) private readonly queue: Queue) {}

  @Cron('0 */15 * * * *')
  async enqueueSweep(): Promise<void> {
    const now = new Date();
    const quarter = `${now.toISOString().slice(0, 13)}:${String(Math.floor(now.getUTCMinutes() / 15) * 15).padStart(2, '0')}`;
    await this.queue.add(PROCESS_AVATAR_CLEANUPS, {}, { jobId: `${PROCESS_AVATAR_CLEANUPS}:${quarter}`, removeOnComplete: 100, removeOnFail: 100 });
  }
}
