import { Process, Processor } from '@nestjs/bull';
import { AVATARS_QUEUE, PROCESS_AVATAR_CLEANUPS } from './avatars.constants';
import { AvatarCleanupSweeper } from './avatar-cleanup.sweeper';

/** Bull job: sweep due avatar cleanups (bounded batches until none are due or a batch fails). */
@Processor(AVATARS_QUEUE)
export class AvatarCleanupProcessor {
  constructor(private readonly sweeper: AvatarCleanupSweeper) {}

  @Process(PROCESS_AVATAR_CLEANUPS)
  async process(): Promise<{ removed: number; failed: number }> {
    const total = { removed: 0, failed: 0 };
    for (let i = 0; i < 50; i++) {
      const r = await this.sweeper.sweep(100);
      total.removed += r.removed;
      total.failed += r.failed;
      if (r.removed + r.failed < 100 || r.failed) break;
    }
    return total;
  }
}
