import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { InitiativeEventsPublisher } from '../../initiative-events';
import { initiativeInput } from '../../initiative-input';
import { InitiativeScope } from '../../initiative-scope.service';
import { InitiativeReader } from '../../initiative.reader';
import { InitiativesRepository } from '../../initiatives.repository';
import type { InitiativeEnvelope } from '../../initiatives.response';
import { UpdateInitiativeCommand } from './update-initiative.command';
import { TxRunner } from '../../../../database/tx-runner';

/**
 * Edit/admin on every project of the initiative (owner/admin for organization-level ones). A new
 * primary project needs edit on it too; unbinding the last project makes the initiative
 * organization-level, which needs an owner/admin. Dates are checked against the stored ones.
 */
@CommandHandler(UpdateInitiativeCommand)
export class UpdateInitiativeHandler implements ICommandHandler<UpdateInitiativeCommand, InitiativeEnvelope> {
  constructor(
    private readonly tx: TxRunner,
    private readonly scope: InitiativeScope,
    private readonly access: AccessPolicyService,
    private readonly reader: InitiativeReader,
    private readonly publish: InitiativeEventsPublisher,
    private readonly initiatives: InitiativesRepository,
  ) {}

  async execute({ actor, initiativeId, dto }: UpdateInitiativeCommand): Promise<InitiativeEnvelope> {
    const input = initiativeInput(dto, 'update');
    const previousGoal = await this.tx.run(async (m) => {
      const ini = await this.scope.writable(actor, initiativeId, m, true);
      if (input.projectId !== undefined && input.projectId !== ini.projectId) {
        if (input.projectId) await this.scope.writableProject(actor, input.projectId, m);
        else if (!ini.linkedProjectIds.length) await this.access.assertStrategyWrite(actor, [], undefined, m);
      }
      if (input.goalId) await this.scope.assertGoalReadable(actor, input.goalId, m);
      if (input.ownerId) await this.scope.assertActiveMember(actor, input.ownerId, undefined, m);
      if (input.startDate !== undefined || input.targetDate !== undefined) {
        const cur = (await this.initiatives.dates(actor.orgId, ini.id, m))!;
        const start = input.startDate !== undefined ? input.startDate : cur.start_date;
        const target = input.targetDate !== undefined ? input.targetDate : cur.target_date;
        if (start && target && start > target) throw Errors.validation('start_date must not be after target_date');
      }
      await this.initiatives.update(actor.orgId, ini.id, input, m);
      return ini.goalId;
    });
    if (input.goalId !== undefined && input.goalId !== previousGoal)
      this.publish.linksChanged(actor.orgId, initiativeId, [previousGoal, input.goalId], 'goal_changed');
    return { initiative: await this.reader.detail(actor, initiativeId) };
  }
}
