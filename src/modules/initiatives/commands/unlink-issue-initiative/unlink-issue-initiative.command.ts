import type { Actor } from '../../../../common/auth/principal';

export class UnlinkIssueInitiativeCommand {
  constructor(
    readonly actor: Actor,
    readonly issueId: string,
    readonly initiativeId: string,
  ) {}
}
