import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { SyncSecretsResponse } from '../../kpi-syncs.response';
import { KpiSyncScope } from '../../kpi-sync-scope.service';
import { GetSyncSecretsQuery } from './get-sync-secrets.query';

/** Human owners/admins: names, configured flag, referenced flag, update time. Never values. */
@QueryHandler(GetSyncSecretsQuery)
export class GetSyncSecretsHandler implements IQueryHandler<GetSyncSecretsQuery, SyncSecretsResponse> {
  constructor(private readonly scope: KpiSyncScope) {}

  async execute({ actor, kpiId, syncId }: GetSyncSecretsQuery): Promise<SyncSecretsResponse> {
    const { sync } = await this.scope.forAdmin(actor, kpiId, syncId);
    return { secrets: (await this.scope.secretMeta(actor.orgId, [sync])).get(sync.id)! };
  }
}
