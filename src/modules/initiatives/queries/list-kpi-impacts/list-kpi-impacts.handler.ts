import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { InitiativeScope } from '../../initiative-scope.service';
import { readKpiImpacts } from '../../initiatives.mapper';
import type { KpiImpactListResponse } from '../../initiatives.response';
import { ListKpiImpactsQuery } from './list-kpi-impacts.query';

/** Readable initiative; only impacts on KPIs the caller can read. */
@QueryHandler(ListKpiImpactsQuery)
export class ListKpiImpactsHandler implements IQueryHandler<ListKpiImpactsQuery, KpiImpactListResponse> {
  constructor(
    private readonly db: DataSource,
    private readonly scope: InitiativeScope,
  ) {}

  async execute({ actor, initiativeId }: ListKpiImpactsQuery): Promise<KpiImpactListResponse> {
    const ini = await this.scope.readable(actor, initiativeId);
    return { kpi_impacts: await readKpiImpacts(this.db.manager, actor.orgId, ini.id, await this.scope.visibility(actor)) };
  }
}
