import type { Actor } from '../../../../common/auth/principal';

export class GetProfileQuery {
  constructor(readonly actor: Actor) {}
}
