import type { Actor } from '../../../../common/auth/principal';
import type { PageRequest } from '../../../../common/http/list';

export class ListTeamsQuery {
  constructor(
    readonly actor: Actor,
    readonly page: PageRequest,
  ) {}
}
