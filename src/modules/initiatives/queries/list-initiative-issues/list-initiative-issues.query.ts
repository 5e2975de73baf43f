import type { Actor } from '../../../../common/auth/principal';

export class ListInitiativeIssuesQuery {
  constructor(
    readonly actor: Actor,
    readonly initiativeId: string,
    readonly details: boolean,
  ) {}
}
