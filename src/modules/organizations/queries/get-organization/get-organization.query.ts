import type { Actor } from '../../../../common/auth/principal';

export class GetOrganizationQuery {
  constructor(readonly actor: Actor) {}
}
