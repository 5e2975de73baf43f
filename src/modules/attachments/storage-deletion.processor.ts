import { Process, Processor } from '@nestjs/bull';
import { sweepInBatches, type SweepResult } from '../../common/storage/sweep-batches';
import { ATTACHMENTS_QUEUE, PROCESS_STORAGE_DELETIONS } from './attachments.constants';
import { StorageDeletionSweeper } from './storage-deletion.sweeper';

/** Bull job: sweep due storage deletions (bounded batches until none are due or a batch fails). */
@Processor(ATTACHMENTS_QUEUE)
export class StorageDeletionProcessor {
  constructor(private readonly sweeper: StorageDeletionSweeper) {}

  @Process(PROCESS_STORAGE_DELETIONS)
  process(): Promise<SweepResult> {
    return sweepInBatches((n) => this.sweeper.sweep(n));
  }
}
