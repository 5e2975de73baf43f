import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Errors } from '../../../../common/errors/domain-error';
import { listResponse, parsePage } from '../../../../common/http/list';
import { alias, isUuid } from '../../../../common/http/validation';
import { PendingFormulaRecalculations } from '../../formula/formula-kpi-issue.handler';
import { KpisRepository } from '../../kpis.repository';
import { StrategyAccess } from '../../strategy-access';
import { toKpiResponse } from '../../strategy.mapper';
import { ListKpisQuery } from './list-kpis.query';

/** Readable KPIs, newest first; `?goal_id=` (alias goalId) narrows to one readable goal (400 malformed, 404 unknown). */
@QueryHandler(ListKpisQuery)
export class ListKpisHandler implements IQueryHandler<ListKpisQuery, Record<string, unknown>> {
  constructor(
    private readonly kpis: KpisRepository,
    private readonly strategy: StrategyAccess,
    private readonly pending: PendingFormulaRecalculations,
  ) {}

  async execute({ actor, query }: ListKpisQuery): Promise<Record<string, unknown>> {
    const page = parsePage(query);
    const goalId = alias<unknown>(query, 'goal_id', 'goalId');
    if (goalId !== undefined && !isUuid(goalId)) throw Errors.validation('goal_id must be a UUID');
    if (goalId) await this.strategy.assertGoal(actor, goalId.toLowerCase());
    await this.pending.settle();
    const f = await this.strategy.filter(actor);
    const { rows, total } = await this.kpis.page(actor.orgId, f, goalId ?? null, page.limit, page.offset);
    return listResponse('kpis', rows.map(toKpiResponse), total, page);
  }
}
