import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { EnqueueIssueDeliveriesHandler, WebhookIssueEvents } from './webhook-issue-events';
import { WebhookOutbox } from './webhook-outbox.service';
import { WebhookSecrets } from './webhook-secrets';
import { WEBHOOKS_QUEUE } from './webhooks.constants';

/**
 * The webhook outbox, importable by the API and the worker (and by automation rules): delivery
 * rows written in the writer's transaction for issue events (TxEventSubscriber), enqueued on Bull
 * after commit, and `WebhookOutbox` for automation `send_webhook` actions.
 */
@Module({
  imports: [BullModule.registerQueue({ name: WEBHOOKS_QUEUE })],
  providers: [WebhookOutbox, WebhookSecrets, WebhookIssueEvents, EnqueueIssueDeliveriesHandler],
  exports: [WebhookOutbox, WebhookSecrets, BullModule],
})
export class WebhooksCoreModule {}
