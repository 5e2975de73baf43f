import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { listResponse, parsePage } from '../../../../common/http/list';
import { toRunResponse } from '../../kpi-syncs.mapper';
import { KpiSyncScope } from '../../kpi-sync-scope.service';
import { KpiSyncRunsRepository } from '../../kpi-sync-runs.repository';
import { ListSyncRunsQuery } from './list-sync-runs.query';

/** Human owners/admins: the sync's runs, newest first. No headers, secrets or response bodies exist to show. */
@QueryHandler(ListSyncRunsQuery)
export class ListSyncRunsHandler implements IQueryHandler<ListSyncRunsQuery, Record<string, unknown>> {
  constructor(
    private readonly scope: KpiSyncScope,
    private readonly runs: KpiSyncRunsRepository,
  ) {}

  async execute({ actor, kpiId, syncId, query }: ListSyncRunsQuery): Promise<Record<string, unknown>> {
    await this.scope.forAdmin(actor, kpiId, syncId);
    const page = parsePage(query);
    const n = await this.runs.countOfSync(actor.orgId, syncId);
    const rows = await this.runs.pageOfSync(actor.orgId, syncId, page.limit, page.offset);
    return listResponse('runs', rows.map(toRunResponse), n, page);
  }
}
