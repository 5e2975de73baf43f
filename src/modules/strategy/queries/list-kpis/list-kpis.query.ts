import type { Actor } from '../../../../common/auth/principal';

export class ListKpisQuery {
  constructor(
    readonly actor: Actor,
    readonly query: Record<string, unknown>,
  ) {}
}
