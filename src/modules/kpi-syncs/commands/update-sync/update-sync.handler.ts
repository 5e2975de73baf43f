import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Errors } from '../../../../common/errors/domain-error';
import { toSyncResponse } from '../../kpi-syncs.mapper';
import type { SyncEnvelope } from '../../kpi-syncs.response';
import { KpiSyncStore } from '../../kpi-syncs.store';
import { checkName, checkSchedule, configHash, configParts, validateSyncConfig } from '../../sync-config';
import { UpdateSyncCommand } from './update-sync.command';

/**
 * Human owners/admins. `name` and `schedule` change in place. Any of the three configuration
 * objects given replaces that object; the whole configuration is validated again (allowlist
 * included). A configuration whose hash changes gets config_version + 1 and a published or
 * disabled sync returns to `draft`: it must be validated, dry-run and published again.
 */
@CommandHandler(UpdateSyncCommand)
export class UpdateSyncHandler implements ICommandHandler<UpdateSyncCommand, SyncEnvelope> {
  constructor(private readonly store: KpiSyncStore) {}

  async execute({ actor, kpiId, syncId, dto }: UpdateSyncCommand): Promise<SyncEnvelope> {
    await this.store.forAdmin(actor, kpiId, syncId);
    const name = checkName(dto.name, false);
    const schedule = checkSchedule(dto.schedule);
    const parts = configParts(dto);
    const configGiven = parts.request !== undefined || parts.extraction !== undefined || parts.freshness !== undefined;
    if (name === undefined && schedule === undefined && !configGiven) {
      throw Errors.validation('Nothing to update: give name, schedule, request_config, extraction_config or freshness_config');
    }
    return this.store.db.transaction(async (m) => {
      const s = await this.store.sync(m, actor.orgId, kpiId, syncId, true);
      const sets: string[] = ['updated_at = now()'];
      const args: unknown[] = [actor.orgId, syncId];
      const set = (col: string, v: unknown) => {
        args.push(v);
        sets.push(`${col} = $${args.length}`);
      };
      if (name !== undefined) set('name', name);
      if (schedule !== undefined) set('schedule', schedule);
      if (configGiven) {
        const config = validateSyncConfig(
          {
            request: parts.request !== undefined ? parts.request : s.request_config,
            extraction: parts.extraction !== undefined ? parts.extraction : s.extraction_config,
            freshness: parts.freshness !== undefined ? parts.freshness : s.freshness_config,
          },
          await this.store.allowlist(m, actor.orgId),
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
      await m.query(`UPDATE kpi_http_syncs SET ${sets.join(', ')} WHERE org_id = $1 AND id = $2`, args);
      const row = await this.store.reload(m, actor.orgId, syncId);
      return { sync: toSyncResponse(row, 'full') };
    });
  }
}
