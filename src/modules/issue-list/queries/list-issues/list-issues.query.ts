import type { Actor } from '../../../../common/auth/principal';
import type { IssueListParams } from '../../list-params';

export class ListIssuesQuery {
  constructor(
    readonly actor: Actor,
    readonly params: IssueListParams,
  ) {}
}
