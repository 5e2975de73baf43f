import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Errors } from '../../../../common/errors/domain-error';
import { GoalsRepository } from '../../goals.repository';
import { StrategyAccess } from '../../strategy-access';
import { goalInput } from '../../strategy-input';
import { toGoalResponse } from '../../strategy.mapper';
import type { GoalEnvelope } from '../../strategy.response';
import { UpdateGoalCommand } from './update-goal.command';

/** 404 unreadable, 403 for everyone but owners and admins; only given fields change. */
@CommandHandler(UpdateGoalCommand)
export class UpdateGoalHandler implements ICommandHandler<UpdateGoalCommand, GoalEnvelope> {
  constructor(
    private readonly goals: GoalsRepository,
    private readonly strategy: StrategyAccess,
  ) {}

  async execute({ actor, goalId, dto }: UpdateGoalCommand): Promise<GoalEnvelope> {
    await this.strategy.assertWrite(actor, 'goals', goalId);
    const input = goalInput(dto as unknown as Record<string, unknown>);
    if (input.ownerId) await this.strategy.assertMember(actor.orgId, input.ownerId, 'owner_id');
    if (input.projectId) await this.strategy.assertProject(actor, input.projectId);
    await this.goals.update(actor.orgId, goalId, input);
    const goal = await this.goals.find(actor.orgId, goalId);
    if (!goal) throw Errors.notFound('Goal not found');
    return { goal: toGoalResponse(goal) };
  }
}
