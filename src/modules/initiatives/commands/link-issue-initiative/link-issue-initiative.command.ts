import type { Actor } from '../../../../common/auth/principal';
import type { IssueInitiativeLinkDto } from './link-issue-initiative.dto';

export class LinkIssueInitiativeCommand {
  constructor(
    readonly actor: Actor,
    readonly issueId: string,
    readonly dto: IssueInitiativeLinkDto,
  ) {}
}
