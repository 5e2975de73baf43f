import type { Actor } from '../../../../common/auth/principal';

export class ListIssueLabelsQuery {
  constructor(
    readonly actor: Actor,
    readonly issueId: string,
  ) {}
}
