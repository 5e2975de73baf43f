import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { FormulaKpiRecalculator } from '../../formula/formula-kpi-recalculator';
import { Errors } from '../../../../common/errors/domain-error';
import { resolveKpiSource } from '../../kpi-write';
import { KpisRepository } from '../../kpis.repository';
import { StrategyAccess } from '../../strategy-access';
import { kpiInput } from '../../strategy-input';
import { toKpiResponse } from '../../strategy.mapper';
import type { KpiEnvelope } from '../../strategy.response';
import { UpdateKpiCommand } from './update-kpi.command';
import { TxRunner } from '../../../../database/tx-runner';

/** 404 unreadable, 403 for everyone but owners and admins; only given fields change; formula KPIs are recalculated. */
@CommandHandler(UpdateKpiCommand)
export class UpdateKpiHandler implements ICommandHandler<UpdateKpiCommand, KpiEnvelope> {
  constructor(
    private readonly tx: TxRunner,
    private readonly strategy: StrategyAccess,
    private readonly formula: FormulaKpiRecalculator,
    private readonly kpis: KpisRepository,
  ) {}

  async execute({ actor, kpiId, dto }: UpdateKpiCommand): Promise<KpiEnvelope> {
    await this.strategy.assertWrite(actor, 'kpis', kpiId);
    const input = kpiInput(dto as unknown as Record<string, unknown>);
    if (input.goalId) await this.strategy.assertGoal(actor, input.goalId);
    if (input.projectId) await this.strategy.assertProject(actor, input.projectId);
    await this.tx.run(async (m) => {
      await this.formula.lockIn(m, actor.orgId); // before the row lock (see lockIn)
      const cur = (await this.kpis.lockSource(actor.orgId, kpiId, m))!;
      const source = resolveKpiSource(input, { sourceType: cur.source_type, sourceConfig: cur.source_config, goalId: cur.goal_id });
      await this.kpis.update(actor.orgId, kpiId, source.sourceType, source.sourceConfig === null ? null : JSON.stringify(source.sourceConfig), input, m);
      if (source.sourceType === 'formula') await this.formula.forKpiIn(m, actor.orgId, kpiId);
    });
    const kpi = await this.kpis.find(actor.orgId, kpiId);
    if (!kpi) throw Errors.notFound('KPI not found');
    return { kpi: toKpiResponse(kpi) };
  }
}
