import type { Actor } from '../../../../common/auth/principal';

export class UnlinkTargetIssueCommand {
  constructor(
    readonly actor: Actor,
    readonly initiativeId: string,
    readonly targetId: string,
    readonly issueId: string,
  ) {}
}
