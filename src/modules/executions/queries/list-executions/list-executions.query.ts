import type { Actor } from '../../../../common/auth/principal';

export class ListExecutionsQuery {
  constructor(
    readonly actor: Actor,
    readonly query: Record<string, unknown>,
  ) {}
}
