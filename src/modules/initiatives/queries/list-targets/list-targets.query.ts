import type { Actor } from '../../../../common/auth/principal';

export class ListTargetsQuery {
  constructor(
    readonly actor: Actor,
    readonly initiativeId: string,
  ) {}
}
