import type { Actor } from '../../../../common/auth/principal';

export class UnlinkInitiativeIssueCommand {
  constructor(
    readonly actor: Actor,
    readonly initiativeId: string,
    readonly issueId: string,
  ) {}
}
