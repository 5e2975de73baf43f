import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { listResponse, parsePage } from '../../../../common/http/list';
import { StrategyAccess } from '../../strategy-access';
import { SNAPSHOT_SELECT, toSnapshotResponse } from '../../strategy.mapper';
import { ListSnapshotsQuery } from './list-snapshots.query';

/** Snapshots of a readable KPI (404 otherwise), newest first; attributions to records the caller cannot read show as null. */
@QueryHandler(ListSnapshotsQuery)
export class ListSnapshotsHandler implements IQueryHandler<ListSnapshotsQuery, Record<string, unknown>> {
  constructor(
    private readonly db: DataSource,
    private readonly strategy: StrategyAccess,
  ) {}

  async execute({ actor, kpiId, query }: ListSnapshotsQuery): Promise<Record<string, unknown>> {
    const page = parsePage(query);
    await this.strategy.assertRead(actor, 'kpis', kpiId);
    const rows: Array<Record<string, any>> = await this.db.query(
      `${SNAPSHOT_SELECT} WHERE s.org_id = $1 AND s.kpi_id = $2 ORDER BY s.created_at DESC, s.id DESC LIMIT ${page.limit} OFFSET ${page.offset}`,
      [actor.orgId, kpiId],
    );
    const total: Array<{ n: number }> = await this.db.query('SELECT count(*)::int AS n FROM kpi_snapshots WHERE org_id = $1 AND kpi_id = $2', [actor.orgId, kpiId]);
    const readable = await this.strategy.readableAttributions(
      actor,
      rows.map((r) => r.attributed_to_issue_id).filter(Boolean),
      rows.map((r) => r.attributed_to_initiative_id).filter(Boolean),
    );
    const shown = rows.map((r) => ({
      ...r,
      attributed_to_issue_id: readable.has(r.attributed_to_issue_id) ? r.attributed_to_issue_id : null,
      attributed_to_initiative_id: readable.has(r.attributed_to_initiative_id) ? r.attributed_to_initiative_id : null,
    }));
    return listResponse('snapshots', shown.map(toSnapshotResponse), total[0].n, page);
  }
}
