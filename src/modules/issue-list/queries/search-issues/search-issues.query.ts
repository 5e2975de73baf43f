import type { Actor } from '../../../../common/auth/principal';
import type { IssueSearchParams } from '../../list-params';

export class SearchIssuesQuery {
  constructor(
    readonly actor: Actor,
    readonly params: IssueSearchParams,
  ) {}
}
