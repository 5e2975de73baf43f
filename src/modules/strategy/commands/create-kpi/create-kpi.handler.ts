import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { Errors } from '../../../../common/errors/domain-error';
import { FormulaKpiRecalculator } from '../../formula/formula-kpi-recalculator';
import { resolveKpiSource } from '../../kpi-write';
import { StrategyAccess } from '../../strategy-access';
import { kpiInput } from '../../strategy-input';
import { readKpi } from '../../strategy.mapper';
import type { KpiEnvelope } from '../../strategy.response';
import { CreateKpiCommand } from './create-kpi.command';

/**
 * Organization owners and admins (403 otherwise). `goal_id` and `project_id` must name readable
 * records of the organization (404). A formula KPI is calculated in the same transaction.
 */
@CommandHandler(CreateKpiCommand)
export class CreateKpiHandler implements ICommandHandler<CreateKpiCommand, KpiEnvelope> {
  constructor(
    private readonly db: DataSource,
    private readonly strategy: StrategyAccess,
    private readonly formula: FormulaKpiRecalculator,
  ) {}

  async execute({ actor, dto }: CreateKpiCommand): Promise<KpiEnvelope> {
    this.strategy.assertStrategyAdmin(actor);
    const input = kpiInput(dto as unknown as Record<string, unknown>);
    if (input.name === undefined) throw Errors.validation('name is required');
    const source = resolveKpiSource(input, null);
    if (input.goalId) await this.strategy.assertGoal(actor, input.goalId);
    if (input.projectId) await this.strategy.assertProject(actor, input.projectId);
    const id = randomUUID();
    await this.db.transaction(async (m) => {
      await m.query(
        `INSERT INTO kpis (org_id, id, goal_id, project_id, name, description, unit, unit_label, baseline_value, target_value, target_date,
                           target_direction, source_type, source_config, stale_after_hours, created_by_member_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
        [actor.orgId, id, input.goalId ?? null, input.projectId ?? null, input.name, input.description ?? null, input.unit ?? 'count', input.unitLabel ?? null,
          input.baselineValue ?? null, input.targetValue ?? null, input.targetDate ?? null, input.targetDirection ?? 'increase', source.sourceType,
          source.sourceConfig === null ? null : JSON.stringify(source.sourceConfig), input.staleAfterHours ?? null, actor.memberId],
      );
      if (source.sourceType === 'formula') await this.formula.forKpiIn(m, actor.orgId, id);
    });
    return { kpi: await readKpi(this.db.manager, actor.orgId, id) };
  }
}
