import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Errors } from '../../../../common/errors/domain-error';
import { GoalsRepository } from '../../goals.repository';
import { StrategyAccess } from '../../strategy-access';
import { toGoalResponse } from '../../strategy.mapper';
import type { GoalEnvelope } from '../../strategy.response';
import { GetGoalQuery } from './get-goal.query';

/** 404 when unknown, of another organization, or unreadable. */
@QueryHandler(GetGoalQuery)
export class GetGoalHandler implements IQueryHandler<GetGoalQuery, GoalEnvelope> {
  constructor(
    private readonly goals: GoalsRepository,
    private readonly strategy: StrategyAccess,
  ) {}

  async execute({ actor, goalId }: GetGoalQuery): Promise<GoalEnvelope> {
    await this.strategy.assertRead(actor, 'goals', goalId);
    const goal = await this.goals.find(actor.orgId, goalId);
    if (!goal) throw Errors.notFound('Goal not found');
    return { goal: toGoalResponse(goal) };
  }
}
