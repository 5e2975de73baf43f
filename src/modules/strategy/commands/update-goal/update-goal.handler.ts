import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { StrategyAccess } from '../../strategy-access';
import { goalInput } from '../../strategy-input';
import { readGoal } from '../../strategy.mapper';
import type { GoalEnvelope } from '../../strategy.response';
import { UpdateGoalCommand } from './update-goal.command';

const COLUMNS: Record<string, string> = {
  title: 'title',
  description: 'description',
  ownerId: 'owner_member_id',
  status: 'status',
  targetDate: 'target_date',
  projectId: 'project_id',
};

/** 404 unreadable, 403 for everyone but owners and admins; only given fields change. */
@CommandHandler(UpdateGoalCommand)
export class UpdateGoalHandler implements ICommandHandler<UpdateGoalCommand, GoalEnvelope> {
  constructor(
    private readonly db: DataSource,
    private readonly strategy: StrategyAccess,
  ) {}

  async execute({ actor, goalId, dto }: UpdateGoalCommand): Promise<GoalEnvelope> {
    await this.strategy.assertWrite(actor, 'goals', goalId);
    const input = goalInput(dto as unknown as Record<string, unknown>);
    if (input.ownerId) await this.strategy.assertMember(actor.orgId, input.ownerId, 'owner_id');
    if (input.projectId) await this.strategy.assertProject(actor, input.projectId);
    const sets: string[] = [];
    const values: unknown[] = [actor.orgId, goalId];
    for (const [key, column] of Object.entries(COLUMNS)) {
      const v = (input as Record<string, unknown>)[key];
      if (v === undefined) continue;
      values.push(v);
      sets.push(`${column} = $${values.length}`);
    }
    if (sets.length) await this.db.query(`UPDATE goals SET ${sets.join(', ')}, updated_at = now() WHERE org_id = $1 AND id = $2`, values);
    return { goal: await readGoal(this.db.manager, actor.orgId, goalId) };
  }
}
