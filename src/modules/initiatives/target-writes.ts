import type { EntityManager } from 'typeorm';
import { DomainError } from '../../common/errors/domain-error';
import type { InitiativeRef } from './initiative-scope.service';
import type { TargetInput } from './target-input';

/** Column of each target field. */
export const TARGET_COLUMNS: Record<Exclude<keyof TargetInput, 'scope'>, string> = {
  title: 'title',
  description: 'description',
  mode: 'mode',
  status: 'status',
  unit: 'unit',
  unitLabel: 'unit_label',
  baselineValue: 'baseline_value',
  currentValue: 'current_value',
  targetValue: 'target_value',
  targetDirection: 'target_direction',
  targetDate: 'target_date',
  dueSoonDays: 'due_soon_days',
};

/** A `projects` scope must stay inside the initiative: every scope project linked to it (400 otherwise). */
export function assertScopeInsideInitiative(ini: InitiativeRef, scope: NonNullable<TargetInput['scope']>): void {
  if (scope.type !== 'projects') return;
  const outside = scope.projectIds.filter((p) => !ini.projectIds.includes(p));
  if (outside.length) {
    throw new DomainError(400, 'scope_project_not_linked', 'Every scope project must be linked to the initiative (link the project to the initiative first)', {
      project_ids: outside,
    });
  }
}

/** Replaces the stored scope projects of a target. */
export async function writeScope(m: EntityManager, orgId: string, targetId: string, scope: NonNullable<TargetInput['scope']>): Promise<void> {
  await m.query('DELETE FROM initiative_target_projects WHERE org_id = $1 AND target_id = $2', [orgId, targetId]);
  if (scope.type === 'projects' && scope.projectIds.length) {
    await m.query('INSERT INTO initiative_target_projects (org_id, target_id, project_id) SELECT $1, $2, unnest($3::uuid[])', [orgId, targetId, scope.projectIds]);
  }
}
