import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Errors } from '../../../../common/errors/domain-error';
import { KpiSyncRunner } from '../../kpi-sync-runner.service';
import { toRunResponse, toSyncResponse } from '../../kpi-syncs.mapper';
import type { SyncRunEnvelope } from '../../kpi-syncs.response';
import { KpiSyncScope } from '../../kpi-sync-scope.service';
import { RunSyncNowCommand } from './run-sync-now.command';

/**
 * Human owners/admins. Default: a `preview` run (no snapshot) of any sync. With
 * `{ confirm_snapshot_write: true }` a `manual` run of a published sync that writes an api_poll
 * snapshot on success (409 `sync_not_published` otherwise).
 */
@CommandHandler(RunSyncNowCommand)
export class RunSyncNowHandler implements ICommandHandler<RunSyncNowCommand, SyncRunEnvelope> {
  constructor(
    private readonly scope: KpiSyncScope,
    private readonly runner: KpiSyncRunner,
  ) {}

  async execute({ actor, kpiId, syncId, dto }: RunSyncNowCommand): Promise<SyncRunEnvelope> {
    const { sync } = await this.scope.forAdmin(actor, kpiId, syncId);
    const confirm = dto.confirm_snapshot_write ?? false;
    if (typeof confirm !== 'boolean') throw Errors.validation('confirm_snapshot_write must be a boolean');
    if (confirm && sync.status !== 'published')
      throw Errors.conflict('Only a published sync writes snapshots; publish it first, or run a preview', 'sync_not_published');
    const run = await this.runner.runNow(sync, confirm ? 'manual' : 'preview', actor.memberId);
    const row = await this.scope.reload(actor.orgId, syncId);
    return { run: toRunResponse(run), sync: toSyncResponse(row, 'full') };
  }
}
