import type { Actor } from '../../../../common/auth/principal';
import type { IssueLinkDto } from '../../links.dto';

export class LinkInitiativeIssueCommand {
  constructor(
    readonly actor: Actor,
    readonly initiativeId: string,
    readonly dto: IssueLinkDto,
  ) {}
}
