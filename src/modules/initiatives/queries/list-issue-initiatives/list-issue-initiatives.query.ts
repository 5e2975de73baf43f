import type { Actor } from '../../../../common/auth/principal';

export class ListIssueInitiativesQuery {
  constructor(
    readonly actor: Actor,
    readonly issueId: string,
  ) {}
}
