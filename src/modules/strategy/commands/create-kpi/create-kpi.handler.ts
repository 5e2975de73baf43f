import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Errors } from '../../../../common/errors/domain-error';
import { FormulaKpiRecalculator } from '../../formula/formula-kpi-recalculator';
import { resolveKpiSource } from '../../kpi-write';
import { KpisRepository } from '../../kpis.repository';
import { StrategyAccess } from '../../strategy-access';
import { kpiInput } from '../../strategy-input';
import { toKpiResponse } from '../../strategy.mapper';
import type { KpiEnvelope } from '../../strategy.response';
import { CreateKpiCommand } from './create-kpi.command';
import { TxRunner } from '../../../../database/tx-runner';

/**
 * Organization owners and admins (403 otherwise). `goal_id` and `project_id` must name readable
 * records of the organization (404). A formula KPI is calculated in the same transaction.
 */
@CommandHandler(CreateKpiCommand)
export class CreateKpiHandler implements ICommandHandler<CreateKpiCommand, KpiEnvelope> {
  constructor(
    private readonly tx: TxRunner,
    private readonly strategy: StrategyAccess,
    private readonly formula: FormulaKpiRecalculator,
    private readonly kpis: KpisRepository,
  ) {}

  async execute({ actor, dto }: CreateKpiCommand): Promise<KpiEnvelope> {
    this.strategy.assertStrategyAdmin(actor);
    const input = kpiInput(dto as unknown as Record<string, unknown>);
    if (input.name === undefined) throw Errors.validation('name is required');
    const source = resolveKpiSource(input, null);
    if (input.goalId) await this.strategy.assertGoal(actor, input.goalId);
    if (input.projectId) await this.strategy.assertProject(actor, input.projectId);
    const id = randomUUID();
    await this.tx.run(async (m) => {
      await this.kpis.insert(
        actor.orgId,
        {
          id,
          goalId: input.goalId ?? null,
          projectId: input.projectId ?? null,
          name: input.name!,
          description: input.description ?? null,
          unit: input.unit ?? 'count',
          unitLabel: input.unitLabel ?? null,
          baselineValue: input.baselineValue ?? null,
          targetValue: input.targetValue ?? null,
          targetDate: input.targetDate ?? null,
          targetDirection: input.targetDirection ?? 'increase',
          sourceType: source.sourceType,
          sourceConfig: source.sourceConfig === null ? null : JSON.stringify(source.sourceConfig),
          staleAfterHours: input.staleAfterHours ?? null,
          createdByMemberId: actor.memberId,
        },
        m,
      );
      if (source.sourceType === 'formula') await this.formula.forKpiIn(m, actor.orgId, id);
    });
    const kpi = await this.kpis.find(actor.orgId, id);
    if (!kpi) throw Errors.notFound('KPI not found');
    return { kpi: toKpiResponse(kpi) };
  }
}
