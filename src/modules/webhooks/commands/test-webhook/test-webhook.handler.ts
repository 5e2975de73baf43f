import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../common/clock/clock';
import { WebhookManualDelivery } from '../../webhook-manual-delivery';
import { BROADCAST_SCHEMA_VERSION } from '../../webhooks.constants';
import type { WebhookDeliveryEnvelope } from '../../webhooks.response';
import { TestWebhookCommand } from './test-webhook.command';

/** Sends a signed `ping` (schema version 2) through the delivery queue; 202 with the delivery record. */
@CommandHandler(TestWebhookCommand)
export class TestWebhookHandler implements ICommandHandler<TestWebhookCommand, WebhookDeliveryEnvelope> {
  constructor(
    private readonly manual: WebhookManualDelivery,
    private readonly clock: Clock,
  ) {}

  execute({ actor, webhookId }: TestWebhookCommand): Promise<WebhookDeliveryEnvelope> {
    return this.manual.create(actor, webhookId, async () => ({
      event: 'ping',
      schemaVersion: BROADCAST_SCHEMA_VERSION,
      body: JSON.stringify({
        event: 'ping',
        schema_version: BROADCAST_SCHEMA_VERSION,
        occurred_at: this.clock.now().toISOString(),
        organization_id: actor.orgId,
        webhook_id: webhookId,
      }),
    }));
  }
}
