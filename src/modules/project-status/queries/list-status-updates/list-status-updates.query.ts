import type { Actor } from '../../../../common/auth/principal';
import type { PageRequest } from '../../../../common/http/list';

export class ListStatusUpdatesQuery {
  constructor(
    readonly actor: Actor,
    readonly projectId: string,
    readonly page: PageRequest,
  ) {}
}
