import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '../../../../common/errors/domain-error';
import { toSyncResponse } from '../../kpi-syncs.mapper';
import type { SyncValidateEnvelope } from '../../kpi-syncs.response';
import { KpiSyncStore } from '../../kpi-syncs.store';
import { validateSyncConfig } from '../../sync-config';
import { ValidateSyncCommand } from './validate-sync.command';

/**
 * Human owners/admins: checks the stored configuration against the rules and the current
 * allowlist. Success records the hash as validated (a publish gate); failure clears it and is a
 * 400 naming every problem.
 */
@CommandHandler(ValidateSyncCommand)
export class ValidateSyncHandler implements ICommandHandler<ValidateSyncCommand, SyncValidateEnvelope> {
  constructor(private readonly store: KpiSyncStore) {}

  async execute({ actor, kpiId, syncId }: ValidateSyncCommand): Promise<SyncValidateEnvelope> {
    await this.store.forAdmin(actor, kpiId, syncId);
    const failure = await this.store.db.transaction(async (m) => {
      const s = await this.store.sync(m, actor.orgId, kpiId, syncId, true);
      try {
        validateSyncConfig({ request: s.request_config, extraction: s.extraction_config, freshness: s.freshness_config }, await this.store.allowlist(m, actor.orgId));
      } catch (e) {
        if (!(e instanceof DomainError)) throw e;
        await m.query('UPDATE kpi_http_syncs SET validated_config_hash = NULL, validated_at = NULL WHERE org_id = $1 AND id = $2', [actor.orgId, syncId]);
        return e;
      }
      await m.query('UPDATE kpi_http_syncs SET validated_config_hash = config_hash, validated_at = now() WHERE org_id = $1 AND id = $2', [actor.orgId, syncId]);
      return null;
    });
    if (failure) throw failure;
    const row = await this.store.reload(this.store.db.manager, actor.orgId, syncId);
    return { valid: true, sync: toSyncResponse(row, 'full') };
  }
}
