import type { Actor } from '../../../../common/auth/principal';

export class ListInvitationsQuery {
  constructor(
    readonly actor: Actor,
    readonly query: Record<string, unknown>,
  ) {}
}
