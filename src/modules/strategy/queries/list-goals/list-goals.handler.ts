import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Errors } from '../../../../common/errors/domain-error';
import { listResponse, parsePage } from '../../../../common/http/list';
import { GoalsRepository } from '../../goals.repository';
import { StrategyAccess } from '../../strategy-access';
import { GOAL_STATUSES } from '../../strategy-input';
import { toGoalResponse } from '../../strategy.mapper';
import { ListGoalsQuery } from './list-goals.query';

/** Readable goals, newest first; `?status=` one of the goal statuses (400 otherwise). */
@QueryHandler(ListGoalsQuery)
export class ListGoalsHandler implements IQueryHandler<ListGoalsQuery, Record<string, unknown>> {
  constructor(
    private readonly goals: GoalsRepository,
    private readonly strategy: StrategyAccess,
  ) {}

  async execute({ actor, query }: ListGoalsQuery): Promise<Record<string, unknown>> {
    const page = parsePage(query);
    const status = query.status;
    if (status !== undefined && (typeof status !== 'string' || !(GOAL_STATUSES as readonly string[]).includes(status))) {
      throw Errors.validation(`status must be one of ${GOAL_STATUSES.join(', ')}`);
    }
    const f = await this.strategy.filter(actor);
    const { rows, total } = await this.goals.page(actor.orgId, f, status ?? null, page.limit, page.offset);
    return listResponse('goals', rows.map(toGoalResponse), total, page);
  }
}
