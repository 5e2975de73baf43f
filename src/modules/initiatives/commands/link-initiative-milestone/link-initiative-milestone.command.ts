import type { Actor } from '../../../../common/auth/principal';
import type { MilestoneLinkDto } from '../../links.dto';

export class LinkInitiativeMilestoneCommand {
  constructor(
    readonly actor: Actor,
    readonly initiativeId: string,
    readonly dto: MilestoneLinkDto,
  ) {}
}
