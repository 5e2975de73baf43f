import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { FormulaKpiRecalculator } from '../../formula/formula-kpi-recalculator';
import { GoalsRepository } from '../../goals.repository';
import { KpisRepository } from '../../kpis.repository';
import { StrategyAccess } from '../../strategy-access';
import type { StrategySuccessResponse } from '../../strategy.response';
import { DeleteGoalCommand } from './delete-goal.command';
import { TxRunner } from '../../../../database/tx-runner';

/**
 * 404 unreadable, 403 for everyone but owners and admins. Its KPIs and initiatives stay, without
 * goal (the audit reports them orphaned); its formula KPIs become 0 of 0 in the same transaction.
 */
@CommandHandler(DeleteGoalCommand)
export class DeleteGoalHandler implements ICommandHandler<DeleteGoalCommand, StrategySuccessResponse> {
  constructor(
    private readonly tx: TxRunner,
    private readonly strategy: StrategyAccess,
    private readonly formula: FormulaKpiRecalculator,
    private readonly goals: GoalsRepository,
    private readonly kpis: KpisRepository,
  ) {}

  async execute({ actor, goalId }: DeleteGoalCommand): Promise<StrategySuccessResponse> {
    await this.strategy.assertWrite(actor, 'goals', goalId);
    await this.tx.run(async (m) => {
      await this.formula.lockIn(m, actor.orgId); // before the delete's SET NULL locks KPI rows (see lockIn)
      const kpiIds = await this.kpis.formulaIdsOfGoal(actor.orgId, goalId, m);
      await this.goals.delete(actor.orgId, goalId, m);
      for (const kpiId of kpiIds) await this.formula.forKpiIn(m, actor.orgId, kpiId);
    });
    return { success: true };
  }
}
