import type { Actor } from '../../../../common/auth/principal';

export class ListMilestonesQuery {
  constructor(
    readonly actor: Actor,
    readonly projectId: string,
  ) {}
}
