import type { Actor } from '../../../../common/auth/principal';
import type { PageRequest } from '../../../../common/http/list';

export class ListWebhooksQuery {
  constructor(
    readonly actor: Actor,
    readonly page: PageRequest,
  ) {}
}
