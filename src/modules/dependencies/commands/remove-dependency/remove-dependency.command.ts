import type { Actor } from '../../../../common/auth/principal';

export class RemoveDependencyCommand {
  constructor(
    readonly actor: Actor,
    readonly issueId: string,
    readonly dependencyId: string,
  ) {}
}
