import type { Actor } from '../../../../common/auth/principal';
import type { PageRequest } from '../../../../common/http/list';

export class ListTemplatesQuery {
  constructor(
    readonly actor: Actor,
    readonly projectId: string | undefined,
    readonly page: PageRequest,
  ) {}
}
