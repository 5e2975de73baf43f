import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { toSyncResponse } from '../../kpi-syncs.mapper';
import type { SyncEnvelope } from '../../kpi-syncs.response';
import { KpisRepository } from '../../../strategy/kpis.repository';
import { KpiSyncScope } from '../../kpi-sync-scope.service';
import { KpiSyncsRepository } from '../../kpi-syncs.repository';
import { checkName, checkSchedule, configHash, configParts, validateSyncConfig } from '../../sync-config';
import { CreateSyncCommand } from './create-sync.command';
import { TxRunner } from '../../../../database/tx-runner';

export const MAX_SYNCS_PER_KPI = 20;

/**
 * A draft on a readable KPI (404 otherwise) by a human owner/admin or a non-guest agent (403
 * otherwise). The configuration must pass every rule, including the exact-host allowlist.
 */
@CommandHandler(CreateSyncCommand)
export class CreateSyncHandler implements ICommandHandler<CreateSyncCommand, SyncEnvelope> {
  constructor(
    private readonly tx: TxRunner,
    private readonly scope: KpiSyncScope,
    private readonly syncs: KpiSyncsRepository,
    private readonly kpis: KpisRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, kpiId, dto }: CreateSyncCommand): Promise<SyncEnvelope> {
    const kpi = await this.scope.readableKpi(actor, kpiId);
    await this.access.assertKpiSyncDrafter(actor);
    if (kpi.source_type === 'formula') throw Errors.conflict('Formula KPIs compute their own value and take no HTTP syncs', 'kpi_not_syncable');
    const name = checkName(dto.name, true)!;
    const schedule = checkSchedule(dto.schedule) ?? 'daily';
    return this.tx.run(async (m) => {
      await this.kpis.lockSourceType(actor.orgId, kpiId, m);
      const config = validateSyncConfig(configParts(dto), await this.scope.allowlist(actor.orgId, m));
      const n = await this.syncs.countOfKpi(actor.orgId, kpiId, m);
      if (n >= MAX_SYNCS_PER_KPI) throw Errors.conflict(`A KPI has at most ${MAX_SYNCS_PER_KPI} HTTP syncs`, 'sync_limit_reached');
      const id = randomUUID();
      await this.syncs.insert(actor.orgId, { id, kpiId, name, schedule, config, configHash: configHash(config), createdByMemberId: actor.memberId }, m);
      const row = await this.scope.reload(actor.orgId, id, m);
      return { sync: toSyncResponse(row, 'full') };
    });
  }
}
