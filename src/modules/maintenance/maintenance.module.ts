import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { SessionsRepository } from '../accounts/accounts.repository';
import { MAINTENANCE_QUEUE } from './maintenance.constants';
import { MaintenanceScheduler } from './maintenance.scheduler';
import { PurgeSessionsProcessor } from './purge-sessions.processor';

/**
 * Worker-side housekeeping (expired sessions). SessionsRepository (the accounts module's) is
 * provided here as well: AccountsModule carries the HTTP handlers, which the worker does not load.
 */
@Module({
  imports: [BullModule.registerQueue({ name: MAINTENANCE_QUEUE })],
  providers: [SessionsRepository, PurgeSessionsProcessor, MaintenanceScheduler],
})
export class MaintenanceModule {}
