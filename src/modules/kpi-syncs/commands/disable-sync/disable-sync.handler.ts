import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { toSyncResponse } from '../../kpi-syncs.mapper';
import type { SyncEnvelope } from '../../kpi-syncs.response';
import { KpiSyncStore } from '../../kpi-syncs.store';
import { DisableSyncCommand } from './disable-sync.command';

/** Human owners/admins: any status → `disabled` (no scheduled runs; publish again to resume). Idempotent. */
@CommandHandler(DisableSyncCommand)
export class DisableSyncHandler implements ICommandHandler<DisableSyncCommand, SyncEnvelope> {
  constructor(private readonly store: KpiSyncStore) {}

  async execute({ actor, kpiId, syncId }: DisableSyncCommand): Promise<SyncEnvelope> {
    await this.store.forAdmin(actor, kpiId, syncId);
    await this.store.db.query(
      `UPDATE kpi_http_syncs SET status = 'disabled', disabled_at = now(), updated_at = now() WHERE org_id = $1 AND id = $2 AND status <> 'disabled'`,
      [actor.orgId, syncId],
    );
    const row = await this.store.reload(this.store.db.manager, actor.orgId, syncId);
    return { sync: toSyncResponse(row, 'full') };
  }
}
