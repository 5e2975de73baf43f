import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Errors } from '../../../../common/errors/domain-error';
import { dryRunPassed, toSyncResponse } from '../../kpi-syncs.mapper';
import type { SyncEnvelope } from '../../kpi-syncs.response';
import { KpiSyncScope } from '../../kpi-sync-scope.service';
import { KpiSyncsRepository } from '../../kpi-syncs.repository';
import { validateSyncConfig } from '../../sync-config';
import { PublishSyncCommand } from './publish-sync.command';
import { TxRunner } from '../../../../database/tx-runner';

/**
 * Human owners/admins. Gates (409 with a code): the current configuration was validated
 * (`sync_not_validated`), had a successful dry run after the last secret change
 * (`sync_dry_run_required`), every referenced secret is set (`sync_secrets_missing`); the host is
 * still allowlisted (400). Publishing a published sync changes nothing.
 */
@CommandHandler(PublishSyncCommand)
export class PublishSyncHandler implements ICommandHandler<PublishSyncCommand, SyncEnvelope> {
  constructor(
    private readonly tx: TxRunner,
    private readonly scope: KpiSyncScope,
    private readonly syncs: KpiSyncsRepository,
  ) {}

  async execute({ actor, kpiId, syncId }: PublishSyncCommand): Promise<SyncEnvelope> {
    const { kpi } = await this.scope.forAdmin(actor, kpiId, syncId);
    return this.tx.run(async (m) => {
      const s = await this.scope.sync(actor.orgId, kpiId, syncId, true, m);
      if (s.status !== 'published') {
        if (kpi.source_type === 'formula') throw Errors.conflict('Formula KPIs compute their own value and take no HTTP syncs', 'kpi_not_syncable');
        validateSyncConfig(
          { request: s.request_config, extraction: s.extraction_config, freshness: s.freshness_config },
          await this.scope.allowlist(actor.orgId, m),
        );
        if (s.validated_config_hash !== s.config_hash)
          throw Errors.conflict('Validate the current configuration first (POST …/validate)', 'sync_not_validated');
        const missing = ((await this.scope.secretMeta(actor.orgId, [s], m)).get(s.id) ?? []).filter((x) => x.referenced && !x.configured).map((x) => x.name);
        if (missing.length)
          throw Errors.conflict(`Set the referenced secrets first: ${missing.join(', ')}`, 'sync_secrets_missing', { missing_secrets: missing });
        if (!dryRunPassed(s))
          throw Errors.conflict('Run a successful dry run of the current configuration and secrets first (POST …/dry-run)', 'sync_dry_run_required');
        await this.syncs.publish(actor.orgId, syncId, actor.memberId, m);
      }
      const row = await this.scope.reload(actor.orgId, syncId, m);
      return { sync: toSyncResponse(row, 'full') };
    });
  }
}
