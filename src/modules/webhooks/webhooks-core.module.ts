import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { WebhookBroadcasts } from './webhook-broadcasts';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { EnqueueIssueDeliveriesHandler, WebhookIssueEvents } from './webhook-issue-events';
import { WebhookOutbox } from './webhook-outbox.service';
import { WebhookSecrets } from './webhook-secrets';
import { WEBHOOKS_QUEUE } from './webhooks.constants';
import { WebhooksRepository } from './webhooks.repository';

/**
 * The webhook outbox, importable by the API and the worker (and by automation rules): delivery
 * rows written in the writer's transaction for issue events (TxEventSubscriber), enqueued on Bull
 * after commit, `WebhookOutbox` for automation `send_webhook` actions, and the repositories:
 * `WebhooksRepository` (destinations; `failing` = consecutive failures per destination, for the
 * heartbeat `webhook_failing` signal) and `WebhookDeliveriesRepository` (outbox rows, claims, drain).
 */
@Module({
  imports: [BullModule.registerQueue({ name: WEBHOOKS_QUEUE })],
  providers: [
    WebhooksRepository,
    WebhookDeliveriesRepository,
    WebhookOutbox,
    WebhookSecrets,
    WebhookIssueEvents,
    EnqueueIssueDeliveriesHandler,
    WebhookBroadcasts,
  ],
  exports: [WebhooksRepository, WebhookDeliveriesRepository, WebhookOutbox, WebhookSecrets, BullModule],
})
export class WebhooksCoreModule {}
