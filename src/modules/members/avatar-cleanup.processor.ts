import { Process, Processor } from '@nestjs/bull';
import { sweepInBatches, type SweepResult } from '../../common/storage/sweep-batches';
import { AVATARS_QUEUE, PROCESS_AVATAR_CLEANUPS } from './avatars.constants';
import { AvatarCleanupSweeper } from './avatar-cleanup.sweeper';

/** Bull job: sweep due avatar cleanups (bounded batches until none are due or a batch fails). */
@Processor(AVATARS_QUEUE)
export class AvatarCleanupProcessor {
  constructor(private readonly sweeper: AvatarCleanupSweeper) {}

  @Process(PROCESS_AVATAR_CLEANUPS)
  process(): Promise<SweepResult> {
    return sweepInBatches((n) => this.sweeper.sweep(n));
  }
}
