import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '../../../../common/errors/domain-error';
import { text, uuidRef } from '../../fields';
import { InitiativeScope } from '../../initiative-scope.service';
import { toKpiImpacts } from '../../initiatives.mapper';
import { InitiativesRepository } from '../../initiatives.repository';
import type { KpiImpactEnvelope } from '../../initiatives.response';
import { AddKpiImpactCommand } from './add-kpi-impact.command';
import { TxRunner } from '../../../../database/tx-runner';

/**
 * Initiative write rule; the KPI must be readable (404 `kpi_not_found`). One link per KPI: a second
 * one is 409 `kpi_impact_exists` (with its id) so an expected impact is never silently dropped.
 */
@CommandHandler(AddKpiImpactCommand)
export class AddKpiImpactHandler implements ICommandHandler<AddKpiImpactCommand, KpiImpactEnvelope> {
  constructor(
    private readonly tx: TxRunner,
    private readonly scope: InitiativeScope,
    private readonly initiatives: InitiativesRepository,
  ) {}

  async execute({ actor, initiativeId, dto }: AddKpiImpactCommand): Promise<KpiImpactEnvelope> {
    const kpiId = uuidRef(dto, 'kpi_id');
    const expected = text(dto, 'expected_impact', { max: 2000, nullable: true }) ?? null;
    const id = await this.tx.run(async (m) => {
      const ini = await this.scope.writable(actor, initiativeId, m, true);
      await this.scope.readableKpi(actor, kpiId, m);
      const created = await this.initiatives.insertKpiImpact(actor.orgId, ini.id, kpiId, expected, actor.memberId, m);
      if (!created) {
        const existing = await this.initiatives.kpiImpactId(actor.orgId, ini.id, kpiId, m);
        throw new DomainError(409, 'kpi_impact_exists', 'This KPI is already linked to the initiative', { kpi_impact_id: existing ?? null });
      }
      return created;
    });
    const [impact] = toKpiImpacts(await this.initiatives.kpiImpacts(actor.orgId, initiativeId, id), await this.scope.visibility(actor));
    return { kpi_impact: impact };
  }
}
