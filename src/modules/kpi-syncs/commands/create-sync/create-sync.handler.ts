import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { toSyncResponse } from '../../kpi-syncs.mapper';
import type { SyncEnvelope } from '../../kpi-syncs.response';
import { KpiSyncStore } from '../../kpi-syncs.store';
import { checkName, checkSchedule, configHash, configParts, validateSyncConfig } from '../../sync-config';
import { CreateSyncCommand } from './create-sync.command';

export const MAX_SYNCS_PER_KPI = 20;

/**
 * A draft on a readable KPI (404 otherwise) by a human owner/admin or a non-guest agent (403
 * otherwise). The configuration must pass every rule, including the exact-host allowlist.
 */
@CommandHandler(CreateSyncCommand)
export class CreateSyncHandler implements ICommandHandler<CreateSyncCommand, SyncEnvelope> {
  constructor(
    private readonly store: KpiSyncStore,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, kpiId, dto }: CreateSyncCommand): Promise<SyncEnvelope> {
    const kpi = await this.store.readableKpi(actor, kpiId);
    await this.access.assertKpiSyncDrafter(actor);
    if (kpi.source_type === 'formula') throw Errors.conflict('Formula KPIs compute their own value and take no HTTP syncs', 'kpi_not_syncable');
    const name = checkName(dto.name, true)!;
    const schedule = checkSchedule(dto.schedule) ?? 'daily';
    return this.store.db.transaction(async (m) => {
      await m.query('SELECT 1 FROM kpis WHERE org_id = $1 AND id = $2 FOR UPDATE', [actor.orgId, kpiId]);
      const config = validateSyncConfig(configParts(dto), await this.store.allowlist(m, actor.orgId));
      const [{ n }] = await m.query('SELECT count(*)::int AS n FROM kpi_http_syncs WHERE org_id = $1 AND kpi_id = $2', [actor.orgId, kpiId]);
      if (n >= MAX_SYNCS_PER_KPI) throw Errors.conflict(`A KPI has at most ${MAX_SYNCS_PER_KPI} HTTP syncs`, 'sync_limit_reached');
      const id = randomUUID();
      await m.query(
        `INSERT INTO kpi_http_syncs (org_id, id, kpi_id, name, status, schedule, request_config, extraction_config, freshness_config, config_version, config_hash, created_by_member_id, created_at, updated_at)
         VALUES ($1, $2, $3, $4, 'draft', $5, $6, $7, $8, 1, $9, $10, now(), now())`,
        [actor.orgId, id, kpiId, name, schedule, config.request_config, config.extraction_config, config.freshness_config, configHash(config), actor.memberId],
      );
      const row = await this.store.reload(m, actor.orgId, id);
      return { sync: toSyncResponse(row, 'full') };
    });
  }
}
