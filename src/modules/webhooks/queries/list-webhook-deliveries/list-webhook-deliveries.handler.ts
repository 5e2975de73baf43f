import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { WebhookDeliveriesRepository } from '../../webhook-deliveries.repository';
import { toDeliveryResponse } from '../../webhooks.mapper';
import { WebhooksRepository } from '../../webhooks.repository';
import type { WebhookDeliveryList } from '../../webhooks.response';
import { ListWebhookDeliveriesQuery } from './list-webhook-deliveries.query';

/** Recent deliveries of one destination, newest first (at most 100): status and codes, never payloads or responses. */
@QueryHandler(ListWebhookDeliveriesQuery)
export class ListWebhookDeliveriesHandler implements IQueryHandler<ListWebhookDeliveriesQuery, WebhookDeliveryList> {
  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, webhookId, limit }: ListWebhookDeliveriesQuery): Promise<WebhookDeliveryList> {
    this.access.assertOrgAdmin(actor, 'Only organization owners and admins can manage webhooks');
    if (!(await this.webhooks.exists(actor.orgId, webhookId))) throw Errors.notFound('Webhook not found');
    const rows = await this.deliveries.recentOf(actor.orgId, webhookId, limit);
    return { deliveries: rows.map(toDeliveryResponse) };
  }
}
