import type { Actor } from '../../../../common/auth/principal';

export class GetBoardContextQuery {
  constructor(
    readonly actor: Actor,
    readonly projectId: string,
  ) {}
}
