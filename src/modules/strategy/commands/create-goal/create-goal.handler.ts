import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Errors } from '../../../../common/errors/domain-error';
import { GoalsRepository } from '../../goals.repository';
import { StrategyAccess } from '../../strategy-access';
import { goalInput } from '../../strategy-input';
import { toGoalResponse } from '../../strategy.mapper';
import type { GoalEnvelope } from '../../strategy.response';
import { CreateGoalCommand } from './create-goal.command';

/** Organization owners and admins (403 otherwise). `owner_id` must be an active member, `project_id` a project of the organization. */
@CommandHandler(CreateGoalCommand)
export class CreateGoalHandler implements ICommandHandler<CreateGoalCommand, GoalEnvelope> {
  constructor(
    private readonly goals: GoalsRepository,
    private readonly strategy: StrategyAccess,
  ) {}

  async execute({ actor, dto }: CreateGoalCommand): Promise<GoalEnvelope> {
    this.strategy.assertStrategyAdmin(actor);
    const input = goalInput(dto as unknown as Record<string, unknown>);
    if (input.title === undefined) throw Errors.validation('title is required');
    if (input.ownerId) await this.strategy.assertMember(actor.orgId, input.ownerId, 'owner_id');
    if (input.projectId) await this.strategy.assertProject(actor, input.projectId);
    const id = randomUUID();
    await this.goals.insert(actor.orgId, {
      id,
      title: input.title,
      description: input.description ?? null,
      ownerMemberId: input.ownerId ?? null,
      status: input.status ?? 'active',
      targetDate: input.targetDate ?? null,
      projectId: input.projectId ?? null,
      createdByMemberId: actor.memberId,
    });
    const goal = await this.goals.find(actor.orgId, id);
    if (!goal) throw Errors.notFound('Goal not found');
    return { goal: toGoalResponse(goal) };
  }
}
