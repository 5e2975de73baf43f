import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Errors } from '../../../../common/errors/domain-error';
import { dryRunPassed, toSyncResponse } from '../../kpi-syncs.mapper';
import type { SyncEnvelope } from '../../kpi-syncs.response';
import { KpiSyncStore } from '../../kpi-syncs.store';
import { validateSyncConfig } from '../../sync-config';
import { PublishSyncCommand } from './publish-sync.command';

/**
 * Human owners/admins. Gates (409 with a code): the current configuration was validated
 * (`sync_not_validated`), had a successful dry run after the last secret change
 * (`sync_dry_run_required`), every referenced secret is set (`sync_secrets_missing`); the host is
 * still allowlisted (400). Publishing a published sync changes nothing.
 */
@CommandHandler(PublishSyncCommand)
export class PublishSyncHandler implements ICommandHandler<PublishSyncCommand, SyncEnvelope> {
  constructor(private readonly store: KpiSyncStore) {}

  async execute({ actor, kpiId, syncId }: PublishSyncCommand): Promise<SyncEnvelope> {
    const { kpi } = await this.store.forAdmin(actor, kpiId, syncId);
    return this.store.db.transaction(async (m) => {
      const s = await this.store.sync(m, actor.orgId, kpiId, syncId, true);
      if (s.status !== 'published') {
        if (kpi.source_type === 'formula') throw Errors.conflict('Formula KPIs compute their own value and take no HTTP syncs', 'kpi_not_syncable');
        validateSyncConfig({ request: s.request_config, extraction: s.extraction_config, freshness: s.freshness_config }, await this.store.allowlist(m, actor.orgId));
        if (s.validated_config_hash !== s.config_hash) throw Errors.conflict('Validate the current configuration first (POST …/validate)', 'sync_not_validated');
        const missing = ((await this.store.secretMeta(m, actor.orgId, [s])).get(s.id) ?? []).filter((x) => x.referenced && !x.configured).map((x) => x.name);
        if (missing.length) throw Errors.conflict(`Set the referenced secrets first: ${missing.join(', ')}`, 'sync_secrets_missing', { missing_secrets: missing });
        if (!dryRunPassed(s)) throw Errors.conflict('Run a successful dry run of the current configuration and secrets first (POST …/dry-run)', 'sync_dry_run_required');
        await m.query(
          `UPDATE kpi_http_syncs SET status = 'published', published_at = now(), published_by_member_id = $3, disabled_at = NULL, updated_at = now()
           WHERE org_id = $1 AND id = $2`,
          [actor.orgId, syncId, actor.memberId],
        );
      }
      const row = await this.store.reload(m, actor.orgId, syncId);
      return { sync: toSyncResponse(row, 'full') };
    });
  }
}
