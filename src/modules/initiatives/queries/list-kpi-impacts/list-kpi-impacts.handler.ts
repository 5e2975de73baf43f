import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { InitiativeScope } from '../../initiative-scope.service';
import { toKpiImpacts } from '../../initiatives.mapper';
import { InitiativesRepository } from '../../initiatives.repository';
import type { KpiImpactListResponse } from '../../initiatives.response';
import { ListKpiImpactsQuery } from './list-kpi-impacts.query';

/** Readable initiative; only impacts on KPIs the caller can read. */
@QueryHandler(ListKpiImpactsQuery)
export class ListKpiImpactsHandler implements IQueryHandler<ListKpiImpactsQuery, KpiImpactListResponse> {
  constructor(
    private readonly initiatives: InitiativesRepository,
    private readonly scope: InitiativeScope,
  ) {}

  async execute({ actor, initiativeId }: ListKpiImpactsQuery): Promise<KpiImpactListResponse> {
    const ini = await this.scope.readable(actor, initiativeId);
    return { kpi_impacts: toKpiImpacts(await this.initiatives.kpiImpacts(actor.orgId, ini.id), await this.scope.visibility(actor)) };
  }
}
