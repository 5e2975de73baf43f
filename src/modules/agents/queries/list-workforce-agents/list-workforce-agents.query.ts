import type { Actor } from '../../../../common/auth/principal';
import type { PageRequest } from '../../../../common/http/list';

export class ListWorkforceAgentsQuery {
  constructor(
    readonly actor: Actor,
    /** Optional project filter (already checked to be a UUID) */
    readonly projectId: string | undefined,
    readonly page: PageRequest,
  ) {}
}
