import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { listResponse } from '../../../../common/http/list';
import { toWebhookResponse } from '../../webhooks.mapper';
import { WebhooksRepository } from '../../webhooks.repository';
import { ListWebhooksQuery } from './list-webhooks.query';

/** The organization's destinations, oldest first, redacted (origin only, secrets as `configured` flags). Owners and admins. */
@QueryHandler(ListWebhooksQuery)
export class ListWebhooksHandler implements IQueryHandler<ListWebhooksQuery, Record<string, unknown>> {
  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, page }: ListWebhooksQuery): Promise<Record<string, unknown>> {
    this.access.assertOrgAdmin(actor, 'Only organization owners and admins can manage webhooks');
    const rows = await this.webhooks.page(actor.orgId, page.limit, page.offset);
    const total = rows.length ? Number(rows[0].total) : await this.webhooks.count(actor.orgId);
    return listResponse('webhooks', rows.map(toWebhookResponse), total, page);
  }
}
