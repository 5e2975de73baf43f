import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { SyncSecretsResponse } from '../../kpi-syncs.response';
import { KpiSyncStore } from '../../kpi-syncs.store';
import { GetSyncSecretsQuery } from './get-sync-secrets.query';

/** Human owners/admins: names, configured flag, referenced flag, update time. Never values. */
@QueryHandler(GetSyncSecretsQuery)
export class GetSyncSecretsHandler implements IQueryHandler<GetSyncSecretsQuery, SyncSecretsResponse> {
  constructor(private readonly store: KpiSyncStore) {}

  async execute({ actor, kpiId, syncId }: GetSyncSecretsQuery): Promise<SyncSecretsResponse> {
    const { sync } = await this.store.forAdmin(actor, kpiId, syncId);
    return { secrets: (await this.store.secretMeta(this.store.db.manager, actor.orgId, [sync])).get(sync.id)! };
  }
}
