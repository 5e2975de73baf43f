import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Errors } from '../../../../common/errors/domain-error';
import { isUuid } from '../../../../common/http/validation';
import { WebhookManualDelivery } from '../../webhook-manual-delivery';
import { WebhookDeliveriesRepository } from '../../webhook-deliveries.repository';
import type { WebhookDeliveryEnvelope } from '../../webhooks.response';
import { RedeliverWebhookCommand } from './redeliver-webhook.command';

/**
 * Manual redelivery: a new delivery (new delivery id and idempotency key) of the same event,
 * schema version and body, signed with the current signing configuration and sent to the current
 * destination version. The source is named by its record `id` or its `delivery_id`. A delivered
 * source whose payload was pruned (WEBHOOK_PAYLOAD_RETENTION_DAYS) is 409 `delivery_payload_pruned`;
 * a deleted one (WEBHOOK_DELIVERY_RETENTION_DAYS) is 404 like any unknown delivery.
 */
@CommandHandler(RedeliverWebhookCommand)
export class RedeliverWebhookHandler implements ICommandHandler<RedeliverWebhookCommand, WebhookDeliveryEnvelope> {
  constructor(
    private readonly manual: WebhookManualDelivery,
    private readonly deliveries: WebhookDeliveriesRepository,
  ) {}

  execute({ actor, webhookId, deliveryRef }: RedeliverWebhookCommand): Promise<WebhookDeliveryEnvelope> {
    if (!isUuid(deliveryRef)) throw Errors.notFound('Delivery not found');
    return this.manual.create(actor, webhookId, async (m) => {
      const src = await this.deliveries.findSource(actor.orgId, webhookId, deliveryRef.toLowerCase(), m);
      if (!src) throw Errors.notFound('Delivery not found');
      if (src.body === null)
        throw Errors.conflict('The payload of this delivery is no longer kept (pruned after delivery); it cannot be redelivered', 'delivery_payload_pruned');
      return { event: src.event, schemaVersion: src.schema_version, body: src.body, redeliveryOf: src.id, issueId: src.issue_id };
    });
  }
}
