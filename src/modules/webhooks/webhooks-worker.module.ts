import { Module } from '@nestjs/common';
import { EgressModule } from '../../common/egress/egress.module';
import { WebhookDeliverer } from './webhook-deliverer.service';
import { WebhookDeliveryProcessor } from './webhook-delivery.processor';
import { WebhookDrain } from './webhook-drain.service';
import { WebhookMaintenanceProcessor } from './webhook-maintenance.processor';
import { WebhookMaintenanceScheduler } from './webhook-maintenance.scheduler';
import { WebhooksCoreModule } from './webhooks-core.module';
import { DEFAULT_WEBHOOK_TIMING, WEBHOOK_TIMING } from './webhooks.constants';

/**
 * Worker side of outbound webhooks: the delivery processor (Bull queue `webhooks`), the drain of
 * never-enqueued or orphaned deliveries (every 30 s), the retry sweep (every 15 minutes) and the
 * hourly maintenance (history retention, payload pruning, re-seal of values sealed without binding).
 * Imported by WorkerModule (needs ScheduleModule.forRoot there).
 */
@Module({
  imports: [WebhooksCoreModule, EgressModule],
  providers: [
    { provide: WEBHOOK_TIMING, useValue: DEFAULT_WEBHOOK_TIMING },
    WebhookDeliverer,
    WebhookDeliveryProcessor,
    WebhookDrain,
    WebhookMaintenanceScheduler,
    WebhookMaintenanceProcessor,
  ],
  exports: [WebhooksCoreModule, WebhookDeliverer, WebhookDrain, WebhookMaintenanceProcessor],
})
export class WebhooksWorkerModule {}
