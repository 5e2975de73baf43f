import type { Actor } from '../../../../common/auth/principal';

export class ListRunnersQuery {
  constructor(readonly actor: Actor) {}
}
