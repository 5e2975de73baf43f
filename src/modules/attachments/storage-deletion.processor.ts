import { Process, Processor } from '@nestjs/bull';
import { ATTACHMENTS_QUEUE, PROCESS_STORAGE_DELETIONS } from './attachments.constants';
import { StorageDeletionSweeper } from './storage-deletion.sweeper';

/** Bull job: sweep due storage deletions (bounded batches until none are due or a batch fails). */
@Processor(ATTACHMENTS_QUEUE)
export class StorageDeletionProcessor {
  constructor(private readonly sweeper: StorageDeletionSweeper) {}

  @Process(PROCESS_STORAGE_DELETIONS)
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
