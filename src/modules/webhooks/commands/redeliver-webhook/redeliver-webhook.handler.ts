import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Errors } from '../../../../common/errors/domain-error';
import { isUuid } from '../../../../common/http/validation';
import { WebhookManualDelivery } from '../../webhook-manual-delivery';
import type { DeliveryEvent } from '../../webhooks.constants';
import type { WebhookDeliveryEnvelope } from '../../webhooks.response';
import { RedeliverWebhookCommand } from './redeliver-webhook.command';

/**
 * Manual redelivery: a new delivery (new delivery id and idempotency key) of the same event,
 * schema version and body, signed with the current signing configuration and sent to the current
 * destination version. The source is named by its record `id` or its `delivery_id`.
 */
@CommandHandler(RedeliverWebhookCommand)
export class RedeliverWebhookHandler implements ICommandHandler<RedeliverWebhookCommand, WebhookDeliveryEnvelope> {
  constructor(private readonly manual: WebhookManualDelivery) {}

  execute({ actor, webhookId, deliveryRef }: RedeliverWebhookCommand): Promise<WebhookDeliveryEnvelope> {
    if (!isUuid(deliveryRef)) throw Errors.notFound('Delivery not found');
    return this.manual.create(actor, webhookId, async (m) => {
      const [src]: Array<{ id: string; event: DeliveryEvent; schema_version: number; body: string; issue_id: string | null }> = await m.query(
        `SELECT id, event, schema_version, body, issue_id FROM webhook_deliveries
          WHERE org_id = $1 AND webhook_id = $2 AND (id = $3 OR delivery_id = $3) LIMIT 1`,
        [actor.orgId, webhookId, deliveryRef.toLowerCase()],
      );
      if (!src) throw Errors.notFound('Delivery not found');
      return { event: src.event, schemaVersion: src.schema_version, body: src.body, redeliveryOf: src.id, issueId: src.issue_id };
    });
  }
}
