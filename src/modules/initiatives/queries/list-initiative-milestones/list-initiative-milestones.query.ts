import type { Actor } from '../../../../common/auth/principal';

export class ListInitiativeMilestonesQuery {
  constructor(
    readonly actor: Actor,
    readonly initiativeId: string,
  ) {}
}
