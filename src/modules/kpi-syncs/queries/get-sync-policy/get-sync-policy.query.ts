import type { Actor } from '../../../../common/auth/principal';

export class GetSyncPolicyQuery {
  constructor(readonly actor: Actor) {}
}
