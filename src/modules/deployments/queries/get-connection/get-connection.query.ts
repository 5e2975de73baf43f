import type { Actor } from '../../../../common/auth/principal';

export class GetConnectionQuery {
  constructor(
    readonly actor: Actor,
    readonly connectionId: string,
  ) {}
}
