import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { InitiativeEventsPublisher } from '../../initiative-events';
import { initiativeInput, type InitiativeInput } from '../../initiative-input';
import { InitiativeScope } from '../../initiative-scope.service';
import { InitiativeReader } from '../../initiative.reader';
import type { InitiativeEnvelope } from '../../initiatives.response';
import { UpdateInitiativeCommand } from './update-initiative.command';

const COLUMNS: Record<keyof InitiativeInput, string> = {
  title: 'title',
  description: 'description',
  goalId: 'goal_id',
  ownerId: 'owner_member_id',
  status: 'status',
  startDate: 'start_date',
  targetDate: 'target_date',
  projectId: 'project_id',
};

/**
 * Edit/admin on every project of the initiative (owner/admin for organization-level ones). A new
 * primary project needs edit on it too; unbinding the last project makes the initiative
 * organization-level, which needs an owner/admin. Dates are checked against the stored ones.
 */
@CommandHandler(UpdateInitiativeCommand)
export class UpdateInitiativeHandler implements ICommandHandler<UpdateInitiativeCommand, InitiativeEnvelope> {
  constructor(
    private readonly db: DataSource,
    private readonly scope: InitiativeScope,
    private readonly access: AccessPolicyService,
    private readonly reader: InitiativeReader,
    private readonly publish: InitiativeEventsPublisher,
  ) {}

  async execute({ actor, initiativeId, dto }: UpdateInitiativeCommand): Promise<InitiativeEnvelope> {
    const input = initiativeInput(dto, 'update');
    const previousGoal = await this.db.transaction(async (m) => {
      const ini = await this.scope.writable(actor, initiativeId, m, true);
      if (input.projectId !== undefined && input.projectId !== ini.projectId) {
        if (input.projectId) await this.scope.writableProject(actor, input.projectId);
        else if (!ini.linkedProjectIds.length) await this.access.assertStrategyWrite(actor, []);
      }
      if (input.goalId) await this.scope.assertGoalReadable(actor, input.goalId);
      if (input.ownerId) await this.scope.assertActiveMember(actor, input.ownerId);
      const sets: string[] = [];
      const args: unknown[] = [actor.orgId, ini.id];
      for (const [k, v] of Object.entries(input) as Array<[keyof InitiativeInput, unknown]>) {
        args.push(v);
        sets.push(`${COLUMNS[k]} = $${args.length}`);
        if (k === 'title') sets.push(`name = $${args.length}`);
      }
      if (input.startDate !== undefined || input.targetDate !== undefined) {
        const [cur]: Array<{ start_date: string | null; target_date: string | null }> = await m.query(
          `SELECT to_char(start_date, 'YYYY-MM-DD') AS start_date, to_char(target_date, 'YYYY-MM-DD') AS target_date FROM initiatives WHERE org_id = $1 AND id = $2`,
          [actor.orgId, ini.id],
        );
        const start = input.startDate !== undefined ? input.startDate : cur.start_date;
        const target = input.targetDate !== undefined ? input.targetDate : cur.target_date;
        if (start && target && start > target) throw Errors.validation('start_date must not be after target_date');
      }
      if (sets.length) await m.query(`UPDATE initiatives SET ${sets.join(', ')}, updated_at = now() WHERE org_id = $1 AND id = $2`, args);
      return ini.goalId;
    });
    if (input.goalId !== undefined && input.goalId !== previousGoal) this.publish.linksChanged(actor.orgId, initiativeId, [previousGoal, input.goalId], 'goal_changed');
    return { initiative: await this.reader.detail(actor, initiativeId) };
  }
}
