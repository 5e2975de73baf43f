import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { KpiSyncScheduler } from './kpi-sync.scheduler';
import { KpiSyncSweepProcessor } from './kpi-sync-sweep.processor';
import { KPI_SYNC_QUEUE } from './kpi-syncs.constants';
import { KpiSyncsCoreModule } from './kpi-syncs-core.module';

/** Worker side of KPI HTTP syncs: the every-minute sweep of due published syncs (Bull queue `kpi-http-syncs`). */
@Module({
  imports: [BullModule.registerQueue({ name: KPI_SYNC_QUEUE }), KpiSyncsCoreModule],
  providers: [KpiSyncScheduler, KpiSyncSweepProcessor],
})
export class KpiSyncsWorkerModule {}
