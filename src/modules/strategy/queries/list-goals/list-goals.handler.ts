import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { Errors } from '../../../../common/errors/domain-error';
import { listResponse, parsePage } from '../../../../common/http/list';
import { StrategyAccess } from '../../strategy-access';
import { GOAL_STATUSES } from '../../strategy-input';
import { GOAL_SELECT, toGoalResponse } from '../../strategy.mapper';
import { ListGoalsQuery } from './list-goals.query';

/** Readable goals, newest first; `?status=` one of the goal statuses (400 otherwise). */
@QueryHandler(ListGoalsQuery)
export class ListGoalsHandler implements IQueryHandler<ListGoalsQuery, Record<string, unknown>> {
  constructor(
    private readonly db: DataSource,
    private readonly strategy: StrategyAccess,
  ) {}

  async execute({ actor, query }: ListGoalsQuery): Promise<Record<string, unknown>> {
    const page = parsePage(query);
    const status = query.status;
    if (status !== undefined && (typeof status !== 'string' || !(GOAL_STATUSES as readonly string[]).includes(status))) {
      throw Errors.validation(`status must be one of ${GOAL_STATUSES.join(', ')}`);
    }
    const f = await this.strategy.filter(actor);
    const where = `g.org_id = $1 AND ${StrategyAccess.visibleSql('g', 2, 3)} AND ($4::text IS NULL OR g.status = $4)`;
    const params = [actor.orgId, f.orgLevel, f.projects, status ?? null];
    const rows: Array<Record<string, any>> = await this.db.query(
      `${GOAL_SELECT} WHERE ${where} ORDER BY g.created_at DESC, g.id DESC LIMIT ${page.limit} OFFSET ${page.offset}`,
      params,
    );
    const total: Array<{ n: number }> = await this.db.query(`SELECT count(*)::int AS n FROM goals g WHERE ${where}`, params);
    return listResponse('goals', rows.map(toGoalResponse), total[0].n, page);
  }
}
