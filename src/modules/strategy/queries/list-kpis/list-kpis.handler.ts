import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { Errors } from '../../../../common/errors/domain-error';
import { listResponse, parsePage } from '../../../../common/http/list';
import { alias, isUuid } from '../../../../common/http/validation';
import { PendingFormulaRecalculations } from '../../formula/formula-kpi-issue.handler';
import { StrategyAccess } from '../../strategy-access';
import { KPI_SELECT, toKpiResponse } from '../../strategy.mapper';
import { ListKpisQuery } from './list-kpis.query';

/** Readable KPIs, newest first; `?goal_id=` (alias goalId) narrows to one readable goal (400 malformed, 404 unknown). */
@QueryHandler(ListKpisQuery)
export class ListKpisHandler implements IQueryHandler<ListKpisQuery, Record<string, unknown>> {
  constructor(
    private readonly db: DataSource,
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
    const where = `k.org_id = $1 AND ${StrategyAccess.visibleSql('k', 2, 3)} AND ($4::uuid IS NULL OR k.goal_id = $4)`;
    const params = [actor.orgId, f.orgLevel, f.projects, goalId ?? null];
    const rows: Array<Record<string, any>> = await this.db.query(
      `${KPI_SELECT} WHERE ${where} ORDER BY k.created_at DESC, k.id DESC LIMIT ${page.limit} OFFSET ${page.offset}`,
      params,
    );
    const total: Array<{ n: number }> = await this.db.query(`SELECT count(*)::int AS n FROM kpis k WHERE ${where}`, params);
    return listResponse('kpis', rows.map(toKpiResponse), total[0].n, page);
  }
}
