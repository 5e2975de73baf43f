import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { PendingFormulaRecalculations } from '../../formula/formula-kpi-issue.handler';
import { StrategyAccess } from '../../strategy-access';
import { readKpi, toImpact } from '../../strategy.mapper';
import type { KpiDetailEnvelope } from '../../strategy.response';
import { GetKpiQuery } from './get-kpi.query';

/** 404 when unknown or unreadable; `initiative_impacts` lists impact links of initiatives the caller can read (all statuses). */
@QueryHandler(GetKpiQuery)
export class GetKpiHandler implements IQueryHandler<GetKpiQuery, KpiDetailEnvelope> {
  constructor(
    private readonly db: DataSource,
    private readonly strategy: StrategyAccess,
    private readonly pending: PendingFormulaRecalculations,
  ) {}

  async execute({ actor, kpiId }: GetKpiQuery): Promise<KpiDetailEnvelope> {
    await this.strategy.assertRead(actor, 'kpis', kpiId);
    await this.pending.settle();
    const f = await this.strategy.filter(actor);
    const impacts: Array<Record<string, any>> = await this.db.query(
      `SELECT x.id, x.initiative_id, x.kpi_id, x.expected_impact, x.created_at, n.title, n.name, n.status
         FROM initiative_kpi_impacts x JOIN initiatives n ON n.org_id = x.org_id AND n.id = x.initiative_id
        WHERE x.org_id = $1 AND x.kpi_id = $2 AND ${StrategyAccess.initiativeVisibleSql('n', 3, 4)}
        ORDER BY x.created_at, x.id`,
      [actor.orgId, kpiId, f.orgLevel, f.projects],
    );
    return { kpi: { ...(await readKpi(this.db.manager, actor.orgId, kpiId)), initiative_impacts: impacts.map(toImpact) } };
  }
}
