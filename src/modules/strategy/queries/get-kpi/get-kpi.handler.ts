import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Errors } from '../../../../common/errors/domain-error';
import { PendingFormulaRecalculations } from '../../formula/formula-kpi-issue.handler';
import { KpisRepository } from '../../kpis.repository';
import { StrategyAccess } from '../../strategy-access';
import { toImpact, toKpiResponse } from '../../strategy.mapper';
import type { KpiDetailEnvelope } from '../../strategy.response';
import { GetKpiQuery } from './get-kpi.query';

/** 404 when unknown or unreadable; `initiative_impacts` lists impact links of initiatives the caller can read (all statuses). */
@QueryHandler(GetKpiQuery)
export class GetKpiHandler implements IQueryHandler<GetKpiQuery, KpiDetailEnvelope> {
  constructor(
    private readonly kpis: KpisRepository,
    private readonly strategy: StrategyAccess,
    private readonly pending: PendingFormulaRecalculations,
  ) {}

  async execute({ actor, kpiId }: GetKpiQuery): Promise<KpiDetailEnvelope> {
    await this.strategy.assertRead(actor, 'kpis', kpiId);
    await this.pending.settle();
    const f = await this.strategy.filter(actor);
    const impacts = await this.kpis.impactsOf(actor.orgId, kpiId, f);
    const kpi = await this.kpis.find(actor.orgId, kpiId);
    if (!kpi) throw Errors.notFound('KPI not found');
    return { kpi: { ...toKpiResponse(kpi), initiative_impacts: impacts.map(toImpact) } };
  }
}
