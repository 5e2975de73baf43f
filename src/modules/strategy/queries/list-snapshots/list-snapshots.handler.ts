import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { listResponse, parsePage } from '../../../../common/http/list';
import { KpisRepository } from '../../kpis.repository';
import { StrategyAccess } from '../../strategy-access';
import { toSnapshotResponse } from '../../strategy.mapper';
import { ListSnapshotsQuery } from './list-snapshots.query';

/** Snapshots of a readable KPI (404 otherwise), newest first; attributions to records the caller cannot read show as null. */
@QueryHandler(ListSnapshotsQuery)
export class ListSnapshotsHandler implements IQueryHandler<ListSnapshotsQuery, Record<string, unknown>> {
  constructor(
    private readonly kpis: KpisRepository,
    private readonly strategy: StrategyAccess,
  ) {}

  async execute({ actor, kpiId, query }: ListSnapshotsQuery): Promise<Record<string, unknown>> {
    const page = parsePage(query);
    await this.strategy.assertRead(actor, 'kpis', kpiId);
    const { rows, total } = await this.kpis.snapshotsPage(actor.orgId, kpiId, page.limit, page.offset);
    const readable = await this.strategy.readableAttributions(
      actor,
      rows.map((r) => r.attributed_to_issue_id).filter((id): id is string => !!id),
      rows.map((r) => r.attributed_to_initiative_id).filter((id): id is string => !!id),
    );
    const shown = rows.map((r) => ({
      ...r,
      attributed_to_issue_id: r.attributed_to_issue_id && readable.has(r.attributed_to_issue_id) ? r.attributed_to_issue_id : null,
      attributed_to_initiative_id: r.attributed_to_initiative_id && readable.has(r.attributed_to_initiative_id) ? r.attributed_to_initiative_id : null,
    }));
    return listResponse('snapshots', shown.map(toSnapshotResponse), total, page);
  }
}
