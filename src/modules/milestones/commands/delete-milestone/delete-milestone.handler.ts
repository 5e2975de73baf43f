import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { FormulaKpiRecalculator } from '../../../strategy/formula/formula-kpi-recalculator';
import { MilestonesRepository } from '../../milestones.repository';
import { DeleteMilestoneCommand } from './delete-milestone.command';
import { TxRunner } from '../../../../database/tx-runner';

/**
 * Owners and admins only (the role check comes first); issues keep existing with milestone_id
 * cleared (FK ON DELETE SET NULL). Formula KPIs of the organization are recalculated in the same
 * transaction: the milestone's issues leave the linked work of initiatives that linked it.
 */
@CommandHandler(DeleteMilestoneCommand)
export class DeleteMilestoneHandler implements ICommandHandler<DeleteMilestoneCommand, { success: true }> {
  constructor(
    private readonly tx: TxRunner,
    private readonly access: AccessPolicyService,
    private readonly milestones: MilestonesRepository,
    private readonly formula: FormulaKpiRecalculator,
  ) {}

  async execute({ actor, milestoneId }: DeleteMilestoneCommand): Promise<{ success: true }> {
    this.access.assertOrgAdmin(actor, 'Only organization owners and admins can delete milestones');
    await this.tx.run(async (m) => {
      await this.formula.lockIn(m, actor.orgId);
      if (!(await this.milestones.delete(actor.orgId, milestoneId, m))) throw Errors.notFound('Milestone not found');
      await this.formula.recalculateForOrgIn(m, actor.orgId);
    });
    return { success: true };
  }
}
