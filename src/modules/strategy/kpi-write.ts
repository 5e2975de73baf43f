import { Errors } from '../../common/errors/domain-error';
import { type KpiInput, formulaConfig } from './strategy-input';

/** The stored shape of a KPI's source, after the request's fields are applied to the current ones. */
export interface KpiSource {
  sourceType: string;
  sourceConfig: Record<string, unknown> | null;
}

/**
 * Rules shared by create and update: a formula KPI needs a goal and a valid formula config, and its
 * target_value is calculated (sending one is 400); leaving `formula` drops the formula config.
 */
export function resolveKpiSource(input: KpiInput, current: (KpiSource & { goalId: string | null }) | null): KpiSource {
  const sourceType = input.sourceType ?? current?.sourceType ?? 'manual';
  if (sourceType === 'formula') {
    const config = formulaConfig(input.sourceConfig !== undefined ? input.sourceConfig : current?.sourceType === 'formula' ? current.sourceConfig : undefined);
    const goalId = input.goalId !== undefined ? input.goalId : current?.goalId;
    if (!goalId) throw Errors.validation("A formula KPI needs goal_id: it counts the work linked to the goal's initiatives");
    if (input.targetValue !== undefined) throw Errors.validation('target_value of a formula KPI is calculated from linked issues; do not send it');
    return { sourceType, sourceConfig: config as unknown as Record<string, unknown> };
  }
  if (input.sourceConfig !== undefined) return { sourceType, sourceConfig: input.sourceConfig };
  return { sourceType, sourceConfig: current && current.sourceType === sourceType ? current.sourceConfig : null };
}
