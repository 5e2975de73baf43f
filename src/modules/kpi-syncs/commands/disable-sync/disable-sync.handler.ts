import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { toSyncResponse } from '../../kpi-syncs.mapper';
import type { SyncEnvelope } from '../../kpi-syncs.response';
import { KpiSyncScope } from '../../kpi-sync-scope.service';
import { KpiSyncsRepository } from '../../kpi-syncs.repository';
import { DisableSyncCommand } from './disable-sync.command';

/** Human owners/admins: any status → `disabled` (no scheduled runs; publish again to resume). Idempotent. */
@CommandHandler(DisableSyncCommand)
export class DisableSyncHandler implements ICommandHandler<DisableSyncCommand, SyncEnvelope> {
  constructor(
    private readonly scope: KpiSyncScope,
    private readonly syncs: KpiSyncsRepository,
  ) {}

  async execute({ actor, kpiId, syncId }: DisableSyncCommand): Promise<SyncEnvelope> {
    await this.scope.forAdmin(actor, kpiId, syncId);
    await this.syncs.disable(actor.orgId, syncId);
    const row = await this.scope.reload(actor.orgId, syncId);
    return { sync: toSyncResponse(row, 'full') };
  }
}
