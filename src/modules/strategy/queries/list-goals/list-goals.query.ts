import type { Actor } from '../../../../common/auth/principal';

export class ListGoalsQuery {
  constructor(
    readonly actor: Actor,
    readonly query: Record<string, unknown>,
  ) {}
}
