import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { ATTACHMENTS_QUEUE } from './attachments.constants';
import { StorageDeletionProcessor } from './storage-deletion.processor';
import { StorageDeletionScheduler } from './storage-deletion.scheduler';
import { StorageDeletionSweeper } from './storage-deletion.sweeper';
import { StorageDeletionsRepository } from './storage-deletions.repository';
import { StorageModule } from '../../common/storage/storage.module';

/**
 * Worker side of attachments: removes stored objects (through the configured ObjectStorage, the
 * same store the API writes to) queued in `storage_deletions` (by attachment
 * deletes and by issue/project/organization cascades), retrying failures with backoff. Imported by
 * WorkerModule (needs ScheduleModule.forRoot there).
 */
@Module({
  imports: [BullModule.registerQueue({ name: ATTACHMENTS_QUEUE }), StorageModule],
  providers: [StorageDeletionsRepository, StorageDeletionSweeper, StorageDeletionProcessor, StorageDeletionScheduler],
  exports: [StorageDeletionSweeper],
})
export class AttachmentsWorkerModule {}
