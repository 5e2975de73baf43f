import type { Actor } from '../../../../common/auth/principal';
import type { InitiativeProjectDto } from './link-initiative-project.dto';

export class LinkInitiativeProjectCommand {
  constructor(
    readonly actor: Actor,
    readonly initiativeId: string,
    readonly dto: InitiativeProjectDto,
  ) {}
}
