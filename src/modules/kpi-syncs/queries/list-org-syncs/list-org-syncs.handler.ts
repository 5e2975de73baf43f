import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { listResponse, parsePage } from '../../../../common/http/list';
import { toSyncResponse } from '../../kpi-syncs.mapper';
import { KpiSyncScope } from '../../kpi-sync-scope.service';
import { KpiSyncsRepository } from '../../kpi-syncs.repository';
import { ListOrgSyncsQuery } from './list-org-syncs.query';

/**
 * The organization's review rows (settings page). Human owners/admins: configuration and secret
 * metadata; other human non-guests: redacted status rows; guests and machine actors: 403.
 */
@QueryHandler(ListOrgSyncsQuery)
export class ListOrgSyncsHandler implements IQueryHandler<ListOrgSyncsQuery, Record<string, unknown>> {
  constructor(
    private readonly syncs: KpiSyncsRepository,
    private readonly access: AccessPolicyService,
    private readonly scope: KpiSyncScope,
  ) {}

  async execute({ actor, query }: ListOrgSyncsQuery): Promise<Record<string, unknown>> {
    const level = await this.access.kpiSyncReadLevel(actor, true);
    const page = parsePage(query);
    const rows = await this.syncs.pageOfOrg(actor.orgId, page.limit, page.offset);
    const total = rows[0]?.total ?? (page.offset ? await this.syncs.countOfOrg(actor.orgId) : 0);
    const secrets = level === 'full' ? await this.scope.secretMeta(actor.orgId, rows) : null;
    const items = rows.map((r) => toSyncResponse(r, level, { kpi: { id: r.kpi_id, name: r.kpi_name }, ...(secrets ? { secrets: secrets.get(r.id) } : {}) }));
    return listResponse('syncs', items, total, page);
  }
}
