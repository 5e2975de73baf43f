import type { Actor } from '../../../../common/auth/principal';

export class ListConnectionsQuery {
  constructor(readonly actor: Actor) {}
}
