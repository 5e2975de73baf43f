import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { listResponse, parsePage } from '../../../../common/http/list';
import { toSyncResponse } from '../../kpi-syncs.mapper';
import { KpiSyncScope } from '../../kpi-sync-scope.service';
import { KpiSyncsRepository } from '../../kpi-syncs.repository';
import { ListKpiSyncsQuery } from './list-kpi-syncs.query';

/** Readable KPI (404), non-guest (403); configuration for owners/admins and the drafter, redacted rows otherwise. */
@QueryHandler(ListKpiSyncsQuery)
export class ListKpiSyncsHandler implements IQueryHandler<ListKpiSyncsQuery, Record<string, unknown>> {
  constructor(
    private readonly scope: KpiSyncScope,
    private readonly syncs: KpiSyncsRepository,
  ) {}

  async execute({ actor, kpiId, query }: ListKpiSyncsQuery): Promise<Record<string, unknown>> {
    const { level } = await this.scope.forRead(actor, kpiId);
    const page = parsePage(query);
    const n = await this.syncs.countOfKpi(actor.orgId, kpiId);
    const rows = await this.syncs.pageOfKpi(actor.orgId, kpiId, page.limit, page.offset);
    return listResponse(
      'syncs',
      rows.map((r) => toSyncResponse(r, this.scope.levelFor(actor, level, r))),
      n,
      page,
    );
  }
}
