import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { KpiSyncRunner } from '../../kpi-sync-runner.service';
import { toRunResponse, toSyncResponse } from '../../kpi-syncs.mapper';
import type { SyncRunEnvelope } from '../../kpi-syncs.response';
import { KpiSyncScope } from '../../kpi-sync-scope.service';
import { KpiSyncsRepository } from '../../kpi-syncs.repository';
import { DryRunSyncCommand } from './dry-run-sync.command';

/**
 * Human owners/admins: one real request with the stored configuration and secrets, recorded as a
 * `dry_run` run; never writes a snapshot. A success marks the configuration hash as dry-run
 * (a publish gate). Provider failures are a 200 with the failed run.
 */
@CommandHandler(DryRunSyncCommand)
export class DryRunSyncHandler implements ICommandHandler<DryRunSyncCommand, SyncRunEnvelope> {
  constructor(
    private readonly scope: KpiSyncScope,
    private readonly syncs: KpiSyncsRepository,
    private readonly runner: KpiSyncRunner,
  ) {}

  async execute({ actor, kpiId, syncId }: DryRunSyncCommand): Promise<SyncRunEnvelope> {
    const { sync } = await this.scope.forAdmin(actor, kpiId, syncId);
    const run = await this.runner.runNow(sync, 'dry_run', actor.memberId);
    if (run.status === 'success') {
      await this.syncs.markDryRun(actor.orgId, syncId, run.config_hash, run.created_at);
    }
    const row = await this.scope.reload(actor.orgId, syncId);
    return { run: toRunResponse(run), sync: toSyncResponse(row, 'full') };
  }
}
