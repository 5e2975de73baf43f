import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Errors } from '../../../../common/errors/domain-error';
import { toSyncResponse } from '../../kpi-syncs.mapper';
import type { SyncEnvelope } from '../../kpi-syncs.response';
import { KpiSyncScope } from '../../kpi-sync-scope.service';
import { KpiSyncsRepository } from '../../kpi-syncs.repository';
import { checkName, checkSchedule, configHash, configParts, validateSyncConfig } from '../../sync-config';
import { UpdateSyncCommand } from './update-sync.command';
import { TxRunner } from '../../../../database/tx-runner';

/**
 * Human owners/admins. `name` and `schedule` change in place. Any of the three configuration
 * objects given replaces that object; the whole configuration is validated again (allowlist
 * included). A configuration whose hash changes gets config_version + 1 and a published or
 * disabled sync returns to `draft`: it must be validated, dry-run and published again.
 */
@CommandHandler(UpdateSyncCommand)
export class UpdateSyncHandler implements ICommandHandler<UpdateSyncCommand, SyncEnvelope> {
  constructor(
    private readonly tx: TxRunner,
    private readonly scope: KpiSyncScope,
    private readonly syncs: KpiSyncsRepository,
  ) {}

  async execute({ actor, kpiId, syncId, dto }: UpdateSyncCommand): Promise<SyncEnvelope> {
    await this.scope.forAdmin(actor, kpiId, syncId);
    const name = checkName(dto.name, false);
    const schedule = checkSchedule(dto.schedule);
    const parts = configParts(dto);
    const configGiven = parts.request !== undefined || parts.extraction !== undefined || parts.freshness !== undefined;
    if (name === undefined && schedule === undefined && !configGiven) {
      throw Errors.validation('Nothing to update: give name, schedule, request_config, extraction_config or freshness_config');
    }
    return this.tx.run(async (m) => {
      const s = await this.scope.sync(actor.orgId, kpiId, syncId, true, m);
      const columns: Array<[string, unknown]> = [];
      const sets: string[] = [];
      const set = (col: string, v: unknown) => columns.push([col, v]);
      if (name !== undefined) set('name', name);
      if (schedule !== undefined) set('schedule', schedule);
      if (configGiven) {
        const config = validateSyncConfig(
          {
            request: parts.request !== undefined ? parts.request : s.request_config,
            extraction: parts.extraction !== undefined ? parts.extraction : s.extraction_config,
            freshness: parts.freshness !== undefined ? parts.freshness : s.freshness_config,
          },
          await this.scope.allowlist(actor.orgId, m),
        );
        const hash = configHash(config);
        if (hash !== s.config_hash) {
          set('request_config', config.request_config);
          set('extraction_config', config.extraction_config);
          set('freshness_config', config.freshness_config);
          set('config_hash', hash);
          sets.push('config_version = config_version + 1');
          if (s.status !== 'draft') sets.push("status = 'draft'", 'published_at = NULL', 'published_by_member_id = NULL', 'disabled_at = NULL');
        }
      }
      await this.syncs.update(actor.orgId, syncId, columns, sets, m);
      const row = await this.scope.reload(actor.orgId, syncId, m);
      return { sync: toSyncResponse(row, 'full') };
    });
  }
}
