import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { listResponse } from '../../../../common/http/list';
import { toWebhookResponse, WEBHOOK_COLUMNS, WEBHOOK_FROM, type WebhookRow } from '../../webhooks.mapper';
import { ListWebhooksQuery } from './list-webhooks.query';

/** The organization's destinations, oldest first, redacted (origin only, secrets as `configured` flags). Owners and admins. */
@QueryHandler(ListWebhooksQuery)
export class ListWebhooksHandler implements IQueryHandler<ListWebhooksQuery, Record<string, unknown>> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, page }: ListWebhooksQuery): Promise<Record<string, unknown>> {
    this.access.assertOrgAdmin(actor, 'Only organization owners and admins can manage webhooks');
    const rows: Array<WebhookRow & { total: string }> = await this.db.query(
      `SELECT ${WEBHOOK_COLUMNS}, count(*) OVER () AS total FROM ${WEBHOOK_FROM} WHERE w.org_id = $1 ORDER BY w.created_at, w.id LIMIT $2 OFFSET $3`,
      [actor.orgId, page.limit, page.offset],
    );
    const total = rows.length ? Number(rows[0].total) : (await this.db.query('SELECT count(*)::int AS n FROM webhooks WHERE org_id = $1', [actor.orgId]))[0].n;
    return listResponse('webhooks', rows.map(toWebhookResponse), total, page);
  }
}
