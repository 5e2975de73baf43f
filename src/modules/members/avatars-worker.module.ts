import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { StorageModule } from '../../common/storage/storage.module';
import { AvatarCleanupProcessor } from './avatar-cleanup.processor';
import { AvatarCleanupScheduler } from './avatar-cleanup.scheduler';
import { AvatarCleanupSweeper } from './avatar-cleanup.sweeper';
import { AVATARS_QUEUE } from './avatars.constants';
import { AvatarsRepository } from './avatars.repository';

/**
 * Worker side of avatars: every 15 minutes drains `avatar_cleanups` (staged uploads that lost
 * their race or never finished, replaced and deleted avatars, avatars of deleted members) through
 * the configured ObjectStorage, with retries. Imported by WorkerModule.
 */
@Module({
  imports: [BullModule.registerQueue({ name: AVATARS_QUEUE }), StorageModule],
  providers: [AvatarsRepository, AvatarCleanupSweeper, AvatarCleanupProcessor, AvatarCleanupScheduler],
  exports: [AvatarCleanupSweeper],
})
export class AvatarsWorkerModule {}
