import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { toSyncResponse } from '../../kpi-syncs.mapper';
import type { SyncEnvelope } from '../../kpi-syncs.response';
import { KpiSyncScope } from '../../kpi-sync-scope.service';
import { GetSyncQuery } from './get-sync.query';

/** As the KPI's sync list: readable KPI, non-guest; configuration for owners/admins and the drafter. */
@QueryHandler(GetSyncQuery)
export class GetSyncHandler implements IQueryHandler<GetSyncQuery, SyncEnvelope> {
  constructor(private readonly scope: KpiSyncScope) {}

  async execute({ actor, kpiId, syncId }: GetSyncQuery): Promise<SyncEnvelope> {
    const { level } = await this.scope.forRead(actor, kpiId);
    const s = await this.scope.sync(actor.orgId, kpiId, syncId);
    return { sync: toSyncResponse(s, this.scope.levelFor(actor, level, s)) };
  }
}
