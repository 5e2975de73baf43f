import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { FormulaKpiRecalculator } from '../../formula/formula-kpi-recalculator';
import { resolveKpiSource } from '../../kpi-write';
import { StrategyAccess } from '../../strategy-access';
import { kpiInput } from '../../strategy-input';
import { readKpi } from '../../strategy.mapper';
import type { KpiEnvelope } from '../../strategy.response';
import { UpdateKpiCommand } from './update-kpi.command';

const COLUMNS: Record<string, string> = {
  name: 'name',
  description: 'description',
  goalId: 'goal_id',
  projectId: 'project_id',
  unit: 'unit',
  unitLabel: 'unit_label',
  baselineValue: 'baseline_value',
  targetValue: 'target_value',
  targetDate: 'target_date',
  targetDirection: 'target_direction',
  staleAfterHours: 'stale_after_hours',
};

/** 404 unreadable, 403 for everyone but owners and admins; only given fields change; formula KPIs are recalculated. */
@CommandHandler(UpdateKpiCommand)
export class UpdateKpiHandler implements ICommandHandler<UpdateKpiCommand, KpiEnvelope> {
  constructor(
    private readonly db: DataSource,
    private readonly strategy: StrategyAccess,
    private readonly formula: FormulaKpiRecalculator,
  ) {}

  async execute({ actor, kpiId, dto }: UpdateKpiCommand): Promise<KpiEnvelope> {
    await this.strategy.assertWrite(actor, 'kpis', kpiId);
    const input = kpiInput(dto as unknown as Record<string, unknown>);
    if (input.goalId) await this.strategy.assertGoal(actor, input.goalId);
    if (input.projectId) await this.strategy.assertProject(actor, input.projectId);
    await this.db.transaction(async (m) => {
      await this.formula.lockIn(m, actor.orgId); // before the row lock (see lockIn)
      const cur: Array<{ source_type: string; source_config: Record<string, unknown> | null; goal_id: string | null }> = await m.query(
        'SELECT source_type, source_config, goal_id FROM kpis WHERE org_id = $1 AND id = $2 FOR UPDATE',
        [actor.orgId, kpiId],
      );
      const source = resolveKpiSource(input, { sourceType: cur[0].source_type, sourceConfig: cur[0].source_config, goalId: cur[0].goal_id });
      const sets = ['source_type = $3', 'source_config = $4'];
      const values: unknown[] = [actor.orgId, kpiId, source.sourceType, source.sourceConfig === null ? null : JSON.stringify(source.sourceConfig)];
      for (const [key, column] of Object.entries(COLUMNS)) {
        const v = (input as Record<string, unknown>)[key];
        if (v === undefined) continue;
        values.push(v);
        sets.push(`${column} = $${values.length}`);
      }
      await m.query(`UPDATE kpis SET ${sets.join(', ')}, updated_at = now() WHERE org_id = $1 AND id = $2`, values);
      if (source.sourceType === 'formula') await this.formula.forKpiIn(m, actor.orgId, kpiId);
    });
    return { kpi: await readKpi(this.db.manager, actor.orgId, kpiId) };
  }
}
