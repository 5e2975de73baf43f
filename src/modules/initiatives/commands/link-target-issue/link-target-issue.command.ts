import type { Actor } from '../../../../common/auth/principal';
import type { IssueLinkDto } from '../../links.dto';

export class LinkTargetIssueCommand {
  constructor(
    readonly actor: Actor,
    readonly initiativeId: string,
    readonly targetId: string,
    readonly dto: IssueLinkDto,
  ) {}
}
