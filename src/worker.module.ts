import { type DynamicModule, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ScheduleModule } from '@nestjs/schedule';
import type { AppConfig } from './config/config';
import { InfrastructureModule } from './infrastructure.module';
import { ActivityRecorderModule } from './modules/activity/activity-recorder.module';
import { AttachmentsWorkerModule } from './modules/attachments/attachments-worker.module';
import { AvatarsWorkerModule } from './modules/members/avatars-worker.module';
import { NotificationsFanoutModule } from './modules/notifications/notifications-fanout.module';
import { MaintenanceModule } from './modules/maintenance/maintenance.module';
import { RecurrenceWorkerModule } from './modules/recurrence/recurrence-worker.module';
import { WebhooksWorkerModule } from './modules/webhooks/webhooks-worker.module';
import { KpiSyncsWorkerModule } from './modules/kpi-syncs/kpi-syncs-worker.module';
import { StrategyFormulaModule } from './modules/strategy/strategy-formula.module';
import { AutomationWorkerModule } from './modules/automation/automation-worker.module';
import { RunnersWorkerModule } from './modules/runners/runners-worker.module';
import { QueuesShutdown } from './process/queues-shutdown';
import { GithubWorkerModule } from './modules/github/github-worker.module';

/** Root module of the worker process: Bull processors and scheduled sweeps, no HTTP server. */
@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        InfrastructureModule.forRoot(config, 'worker'),
        ScheduleModule.forRoot(),
        MaintenanceModule,
        RecurrenceWorkerModule,
        AttachmentsWorkerModule,
        // avatar objects replaced, deleted or left by lost races, every 15 minutes
        AvatarsWorkerModule,
        ActivityRecorderModule,
        NotificationsFanoutModule,
        WebhooksWorkerModule,
        KpiSyncsWorkerModule,
        StrategyFormulaModule,
        // automation rules react to the issues the worker creates (scheduled recurrence); the drain runs jobs left behind
        AutomationWorkerModule,
        // expired runner leases are closed every minute
        RunnersWorkerModule,
        // pull-request links whose provider identity is missing are reconciled every minute
        GithubWorkerModule,
        DiscoveryModule,
      ],
      providers: [QueuesShutdown],
    };
  }
}
