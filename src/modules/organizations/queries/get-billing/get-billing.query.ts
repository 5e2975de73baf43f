import type { Actor } from '../../../../common/auth/principal';

export class GetBillingQuery {
  constructor(readonly actor: Actor) {}
}
