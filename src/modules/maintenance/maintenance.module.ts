import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { MAINTENANCE_QUEUE } from './maintenance.constants';
import { MaintenanceScheduler } from './maintenance.scheduler';
import { PurgeSessionsProcessor } from './purge-sessions.processor';

/** Worker-side housekeeping (expired sessions). */
@Module({
  imports: [BullModule.registerQueue({ name: MAINTENANCE_QUEUE })],
  providers: [PurgeSessionsProcessor, MaintenanceScheduler],
})
export class MaintenanceModule {}
