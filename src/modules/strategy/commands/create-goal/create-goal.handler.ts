import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { Errors } from '../../../../common/errors/domain-error';
import { StrategyAccess } from '../../strategy-access';
import { goalInput } from '../../strategy-input';
import { readGoal } from '../../strategy.mapper';
import type { GoalEnvelope } from '../../strategy.response';
import { CreateGoalCommand } from './create-goal.command';

/** Organization owners and admins (403 otherwise). `owner_id` must be an active member, `project_id` a project of the organization. */
@CommandHandler(CreateGoalCommand)
export class CreateGoalHandler implements ICommandHandler<CreateGoalCommand, GoalEnvelope> {
  constructor(
    private readonly db: DataSource,
    private readonly strategy: StrategyAccess,
  ) {}

  async execute({ actor, dto }: CreateGoalCommand): Promise<GoalEnvelope> {
    this.strategy.assertStrategyAdmin(actor);
    const input = goalInput(dto as unknown as Record<string, unknown>);
    if (input.title === undefined) throw Errors.validation('title is required');
    if (input.ownerId) await this.strategy.assertMember(actor.orgId, input.ownerId, 'owner_id');
    if (input.projectId) await this.strategy.assertProject(actor, input.projectId);
    const id = randomUUID();
    await this.db.query(
      `INSERT INTO goals (org_id, id, title, description, owner_member_id, status, target_date, project_id, created_by_member_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [actor.orgId, id, input.title, input.description ?? null, input.ownerId ?? null, input.status ?? 'active', input.targetDate ?? null, input.projectId ?? null, actor.memberId],
    );
    return { goal: await readGoal(this.db.manager, actor.orgId, id) };
  }
}
