import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { DELIVERY_COLUMNS, type DeliveryRow, toDeliveryResponse } from '../../webhooks.mapper';
import type { WebhookDeliveryList } from '../../webhooks.response';
import { ListWebhookDeliveriesQuery } from './list-webhook-deliveries.query';

/** Recent deliveries of one destination, newest first (at most 100): status and codes, never payloads or responses. */
@QueryHandler(ListWebhookDeliveriesQuery)
export class ListWebhookDeliveriesHandler implements IQueryHandler<ListWebhookDeliveriesQuery, WebhookDeliveryList> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, webhookId, limit }: ListWebhookDeliveriesQuery): Promise<WebhookDeliveryList> {
    this.access.assertOrgAdmin(actor, 'Only organization owners and admins can manage webhooks');
    const exists = await this.db.query('SELECT 1 FROM webhooks WHERE org_id = $1 AND id = $2', [actor.orgId, webhookId]);
    if (!exists.length) throw Errors.notFound('Webhook not found');
    const rows: DeliveryRow[] = await this.db.query(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE org_id = $1 AND webhook_id = $2 ORDER BY created_at DESC, id DESC LIMIT $3`,
      [actor.orgId, webhookId, limit],
    );
    return { deliveries: rows.map(toDeliveryResponse) };
  }
}
