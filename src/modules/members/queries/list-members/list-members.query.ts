import type { Actor } from '../../../../common/auth/principal';

export class ListMembersQuery {
  constructor(
    readonly actor: Actor,
    readonly query: Record<string, unknown>,
  ) {}
}
