import type { Actor } from '../../../../common/auth/principal';

export class UpdateDependencyCommand {
  constructor(
    readonly actor: Actor,
    readonly issueId: string,
    readonly dependencyId: string,
    readonly body: Record<string, unknown>,
  ) {}
}
