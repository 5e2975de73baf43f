import type { Actor } from '../../../../common/auth/principal';

export class AddDependencyCommand {
  constructor(
    readonly actor: Actor,
    readonly issueId: string,
    readonly body: Record<string, unknown>,
  ) {}
}
