import type { Actor } from '../../../../common/auth/principal';

export class GetDeliveryContextQuery {
  constructor(
    readonly actor: Actor,
    readonly issueId: string,
  ) {}
}
