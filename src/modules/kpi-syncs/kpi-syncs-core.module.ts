import { Module } from '@nestjs/common';
import { EgressModule } from '../../common/egress/egress.module';
import { KpiSyncLimits, KpiSyncRunner } from './kpi-sync-runner.service';
import { KpiSyncStore } from './kpi-syncs.store';

/** What the API and the worker share: the store (SQL, secrets) and the runner (requests through the egress client). */
@Module({
  imports: [EgressModule],
  providers: [KpiSyncStore, KpiSyncRunner, KpiSyncLimits],
  exports: [KpiSyncStore, KpiSyncRunner, KpiSyncLimits],
})
export class KpiSyncsCoreModule {}
