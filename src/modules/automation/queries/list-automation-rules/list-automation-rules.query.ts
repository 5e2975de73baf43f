import type { Actor } from '../../../../common/auth/principal';
import type { PageRequest } from '../../../../common/http/list';

export class ListAutomationRulesQuery {
  constructor(
    readonly actor: Actor,
    readonly page: PageRequest,
    /** Only the rules of this project (plus none of the org-wide ones), when given */
    readonly projectId: string | null,
  ) {}
}
