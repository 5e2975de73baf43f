import type { Actor } from '../../../../common/auth/principal';

export class ListInitiativesQuery {
  constructor(
    readonly actor: Actor,
    readonly query: Record<string, unknown>,
  ) {}
}
