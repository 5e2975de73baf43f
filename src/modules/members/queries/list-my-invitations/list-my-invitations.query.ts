import type { HumanPrincipal } from '../../../../common/auth/principal';
import type { PageRequest } from '../../../../common/http/list';

export class ListMyInvitationsQuery {
  constructor(
    readonly invitee: HumanPrincipal,
    readonly page: PageRequest,
  ) {}
}
