import type { Actor } from '../../../../common/auth/principal';
import type { UpdateInitiativeDto } from './update-initiative.dto';

export class UpdateInitiativeCommand {
  constructor(
    readonly actor: Actor,
    readonly initiativeId: string,
    readonly dto: UpdateInitiativeDto,
  ) {}
}
