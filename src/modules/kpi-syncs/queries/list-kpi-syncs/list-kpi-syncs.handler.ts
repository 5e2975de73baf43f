import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { listResponse, parsePage } from '../../../../common/http/list';
import { toSyncResponse } from '../../kpi-syncs.mapper';
import { KpiSyncStore, type SyncRow } from '../../kpi-syncs.store';
import { ListKpiSyncsQuery } from './list-kpi-syncs.query';

/** Readable KPI (404), non-guest (403); configuration for owners/admins and the drafter, redacted rows otherwise. */
@QueryHandler(ListKpiSyncsQuery)
export class ListKpiSyncsHandler implements IQueryHandler<ListKpiSyncsQuery, Record<string, unknown>> {
  constructor(private readonly store: KpiSyncStore) {}

  async execute({ actor, kpiId, query }: ListKpiSyncsQuery): Promise<Record<string, unknown>> {
    const { level } = await this.store.forRead(actor, kpiId);
    const page = parsePage(query);
    const [{ n }] = await this.store.db.query('SELECT count(*)::int AS n FROM kpi_http_syncs WHERE org_id = $1 AND kpi_id = $2', [actor.orgId, kpiId]);
    const rows: SyncRow[] = await this.store.db.query(
      'SELECT s.* FROM kpi_http_syncs s WHERE s.org_id = $1 AND s.kpi_id = $2 ORDER BY s.created_at, s.id LIMIT $3 OFFSET $4',
      [actor.orgId, kpiId, page.limit, page.offset],
    );
    return listResponse('syncs', rows.map((r) => toSyncResponse(r, this.store.levelFor(actor, level, r))), n, page);
  }
}
