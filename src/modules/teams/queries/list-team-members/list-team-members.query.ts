import type { Actor } from '../../../../common/auth/principal';
import type { PageRequest } from '../../../../common/http/list';

export class ListTeamMembersQuery {
  constructor(
    readonly actor: Actor,
    readonly teamId: string,
    readonly page: PageRequest,
  ) {}
}
