import type { Actor } from '../../../../common/auth/principal';

export class GetInitiativeQuery {
  constructor(
    readonly actor: Actor,
    readonly initiativeId: string,
  ) {}
}
