import type { Actor } from '../../../../common/auth/principal';

export class ListDependenciesQuery {
  constructor(
    readonly actor: Actor,
    readonly issueId: string,
  ) {}
}
