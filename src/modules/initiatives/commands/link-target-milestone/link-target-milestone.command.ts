import type { Actor } from '../../../../common/auth/principal';
import type { MilestoneLinkDto } from '../../links.dto';

export class LinkTargetMilestoneCommand {
  constructor(
    readonly actor: Actor,
    readonly initiativeId: string,
    readonly targetId: string,
    readonly dto: MilestoneLinkDto,
  ) {}
}
