import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { FormulaKpiRecalculator } from '../../formula/formula-kpi-recalculator';
import { StrategyAccess } from '../../strategy-access';
import type { StrategySuccessResponse } from '../../strategy.response';
import { DeleteGoalCommand } from './delete-goal.command';

/**
 * 404 unreadable, 403 for everyone but owners and admins. Its KPIs and initiatives stay, without
 * goal (the audit reports them orphaned); its formula KPIs become 0 of 0 in the same transaction.
 */
@CommandHandler(DeleteGoalCommand)
export class DeleteGoalHandler implements ICommandHandler<DeleteGoalCommand, StrategySuccessResponse> {
  constructor(
    private readonly db: DataSource,
    private readonly strategy: StrategyAccess,
    private readonly formula: FormulaKpiRecalculator,
  ) {}

  async execute({ actor, goalId }: DeleteGoalCommand): Promise<StrategySuccessResponse> {
    await this.strategy.assertWrite(actor, 'goals', goalId);
    await this.db.transaction(async (m) => {
      await this.formula.lockIn(m, actor.orgId); // before the delete's SET NULL locks KPI rows (see lockIn)
      const kpis: Array<{ id: string }> = await m.query(`SELECT id FROM kpis WHERE org_id = $1 AND goal_id = $2 AND source_type = 'formula'`, [actor.orgId, goalId]);
      await m.query('DELETE FROM goals WHERE org_id = $1 AND id = $2', [actor.orgId, goalId]);
      for (const k of kpis) await this.formula.forKpiIn(m, actor.orgId, k.id);
    });
    return { success: true };
  }
}
