import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { StrategyAccess } from '../../strategy-access';
import { readGoal } from '../../strategy.mapper';
import type { GoalEnvelope } from '../../strategy.response';
import { GetGoalQuery } from './get-goal.query';

/** 404 when unknown, of another organization, or unreadable. */
@QueryHandler(GetGoalQuery)
export class GetGoalHandler implements IQueryHandler<GetGoalQuery, GoalEnvelope> {
  constructor(
    private readonly db: DataSource,
    private readonly strategy: StrategyAccess,
  ) {}

  async execute({ actor, goalId }: GetGoalQuery): Promise<GoalEnvelope> {
    await this.strategy.assertRead(actor, 'goals', goalId);
    return { goal: await readGoal(this.db.manager, actor.orgId, goalId) };
  }
}
