import type { Actor } from '../../../../common/auth/principal';

export class ListEmailsQuery {
  constructor(
    readonly actor: Actor,
    readonly query: Record<string, unknown>,
  ) {}
}
