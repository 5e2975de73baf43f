import { Module } from '@nestjs/common';
import { EgressModule } from '../../common/egress/egress.module';
import { WebhookDeliverer } from './webhook-deliverer.service';
import { WebhookDeliveryProcessor } from './webhook-delivery.processor';
import { WebhookDrain } from './webhook-drain.service';
import { WebhooksCoreModule } from './webhooks-core.module';

/**
 * Worker side of outbound webhooks: the delivery processor (Bull queue `webhooks`), the drain of
 * never-enqueued or orphaned deliveries (every 30 s) and the retry sweep (every 15 minutes).
 * Imported by WorkerModule (needs ScheduleModule.forRoot there).
 */
@Module({
  imports: [WebhooksCoreModule, EgressModule],
  providers: [WebhookDeliverer, WebhookDeliveryProcessor, WebhookDrain],
  exports: [WebhooksCoreModule, WebhookDeliverer, WebhookDrain],
})
export class WebhooksWorkerModule {}
