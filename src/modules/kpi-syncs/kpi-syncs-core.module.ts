import { Module } from '@nestjs/common';
import { EgressModule } from '../../common/egress/egress.module';
import { StrategyFormulaModule } from '../strategy/strategy-formula.module';
import { KpiSyncLimits, KpiSyncRunner } from './kpi-sync-runner.service';
import { KpiSyncRunsRepository } from './kpi-sync-runs.repository';
import { KpiSyncScope } from './kpi-sync-scope.service';
import { KpiSyncsRepository } from './kpi-syncs.repository';

/**
 * What the API and the worker share: the repositories (syncs with hosts and secrets; runs), the
 * scope (access, secrets sealed) and the runner (requests through the egress client).
 * KpisRepository (the KPI row lock of a run) comes from StrategyFormulaModule.
 */
@Module({
  imports: [EgressModule, StrategyFormulaModule],
  providers: [KpiSyncsRepository, KpiSyncRunsRepository, KpiSyncScope, KpiSyncRunner, KpiSyncLimits],
  exports: [KpiSyncsRepository, KpiSyncRunsRepository, KpiSyncScope, KpiSyncRunner, KpiSyncLimits],
})
export class KpiSyncsCoreModule {}
