import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { toSyncResponse } from '../../kpi-syncs.mapper';
import type { SyncEnvelope } from '../../kpi-syncs.response';
import { KpiSyncStore } from '../../kpi-syncs.store';
import { GetSyncQuery } from './get-sync.query';

/** As the KPI's sync list: readable KPI, non-guest; configuration for owners/admins and the drafter. */
@QueryHandler(GetSyncQuery)
export class GetSyncHandler implements IQueryHandler<GetSyncQuery, SyncEnvelope> {
  constructor(private readonly store: KpiSyncStore) {}

  async execute({ actor, kpiId, syncId }: GetSyncQuery): Promise<SyncEnvelope> {
    const { level } = await this.store.forRead(actor, kpiId);
    const s = await this.store.sync(this.store.db.manager, actor.orgId, kpiId, syncId);
    return { sync: toSyncResponse(s, this.store.levelFor(actor, level, s)) };
  }
}
