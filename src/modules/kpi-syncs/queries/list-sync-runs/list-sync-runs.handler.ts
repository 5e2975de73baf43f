import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { listResponse, parsePage } from '../../../../common/http/list';
import { toRunResponse } from '../../kpi-syncs.mapper';
import { KpiSyncStore, RUN_SELECT } from '../../kpi-syncs.store';
import { ListSyncRunsQuery } from './list-sync-runs.query';

/** Human owners/admins: the sync's runs, newest first. No headers, secrets or response bodies exist to show. */
@QueryHandler(ListSyncRunsQuery)
export class ListSyncRunsHandler implements IQueryHandler<ListSyncRunsQuery, Record<string, unknown>> {
  constructor(private readonly store: KpiSyncStore) {}

  async execute({ actor, kpiId, syncId, query }: ListSyncRunsQuery): Promise<Record<string, unknown>> {
    await this.store.forAdmin(actor, kpiId, syncId);
    const page = parsePage(query);
    const [{ n }] = await this.store.db.query('SELECT count(*)::int AS n FROM kpi_http_sync_runs WHERE org_id = $1 AND sync_id = $2', [actor.orgId, syncId]);
    const rows = await this.store.db.query(`${RUN_SELECT} WHERE r.org_id = $1 AND r.sync_id = $2 ORDER BY r.created_at DESC, r.id DESC LIMIT $3 OFFSET $4`, [
      actor.orgId,
      syncId,
      page.limit,
      page.offset,
    ]);
    return listResponse('runs', rows.map(toRunResponse), n, page);
  }
}
