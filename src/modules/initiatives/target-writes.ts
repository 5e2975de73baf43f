import { DomainError } from '../../common/errors/domain-error';
import type { InitiativeRef } from './initiative-scope.service';
import type { TargetInput } from './target-input';

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
