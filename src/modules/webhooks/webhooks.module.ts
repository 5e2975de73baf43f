import { Module } from '@nestjs/common';
import { CreateWebhookHandler } from './commands/create-webhook/create-webhook.handler';
import { DeleteWebhookHandler } from './commands/delete-webhook/delete-webhook.handler';
import { RedeliverWebhookHandler } from './commands/redeliver-webhook/redeliver-webhook.handler';
import { TestWebhookHandler } from './commands/test-webhook/test-webhook.handler';
import { UpdateWebhookHandler } from './commands/update-webhook/update-webhook.handler';
import { ListWebhookDeliveriesHandler } from './queries/list-webhook-deliveries/list-webhook-deliveries.handler';
import { ListWebhooksHandler } from './queries/list-webhooks/list-webhooks.handler';
import { WebhookManualDelivery } from './webhook-manual-delivery';
import { WebhookDestinations } from './webhook-destinations.service';
import { WebhooksController } from './webhooks.controller';
import { WebhooksCoreModule } from './webhooks-core.module';

/**
 * API side of outbound webhooks: the seven `/api/webhooks` routes (owners and admins only) and,
 * through WebhooksCoreModule, the issue-event outbox. Delivery itself runs in the worker
 * (WebhooksWorkerModule).
 */
@Module({
  imports: [WebhooksCoreModule],
  controllers: [WebhooksController],
  providers: [
    WebhookDestinations,
    WebhookManualDelivery,
    CreateWebhookHandler,
    UpdateWebhookHandler,
    DeleteWebhookHandler,
    TestWebhookHandler,
    RedeliverWebhookHandler,
    ListWebhooksHandler,
    ListWebhookDeliveriesHandler,
  ],
  exports: [WebhooksCoreModule],
})
export class WebhooksModule {}
