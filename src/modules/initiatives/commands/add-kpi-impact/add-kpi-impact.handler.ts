import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { DomainError } from '../../../../common/errors/domain-error';
import { text, uuidRef } from '../../fields';
import { InitiativeScope } from '../../initiative-scope.service';
import { readKpiImpacts } from '../../initiatives.mapper';
import type { KpiImpactEnvelope } from '../../initiatives.response';
import { AddKpiImpactCommand } from './add-kpi-impact.command';

/**
 * Initiative write rule; the KPI must be readable (404 `kpi_not_found`). One link per KPI: a second
 * one is 409 `kpi_impact_exists` (with its id) so an expected impact is never silently dropped.
 */
@CommandHandler(AddKpiImpactCommand)
export class AddKpiImpactHandler implements ICommandHandler<AddKpiImpactCommand, KpiImpactEnvelope> {
  constructor(
    private readonly db: DataSource,
    private readonly scope: InitiativeScope,
  ) {}

  async execute({ actor, initiativeId, dto }: AddKpiImpactCommand): Promise<KpiImpactEnvelope> {
    const kpiId = uuidRef(dto, 'kpi_id', 'kpiId');
    const expected = text(dto, ['expected_impact', 'expectedImpact'], { max: 2000, nullable: true }) ?? null;
    const id = await this.db.transaction(async (m) => {
      const ini = await this.scope.writable(actor, initiativeId, m, true);
      await this.scope.readableKpi(actor, kpiId);
      const rows: Array<{ id: string }> = await m.query(
        `INSERT INTO initiative_kpi_impacts (org_id, initiative_id, kpi_id, expected_impact, created_by_member_id) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (org_id, initiative_id, kpi_id) DO NOTHING RETURNING id`,
        [actor.orgId, ini.id, kpiId, expected, actor.memberId],
      );
      if (!rows[0]) {
        const [existing]: Array<{ id: string }> = await m.query('SELECT id FROM initiative_kpi_impacts WHERE org_id = $1 AND initiative_id = $2 AND kpi_id = $3', [
          actor.orgId,
          ini.id,
          kpiId,
        ]);
        throw new DomainError(409, 'kpi_impact_exists', 'This KPI is already linked to the initiative', { kpi_impact_id: existing?.id ?? null });
      }
      return rows[0].id;
    });
    const [impact] = await readKpiImpacts(this.db.manager, actor.orgId, initiativeId, await this.scope.visibility(actor), id);
    return { kpi_impact: impact };
  }
}
