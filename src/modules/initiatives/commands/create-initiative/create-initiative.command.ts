import type { Actor } from '../../../../common/auth/principal';
import type { CreateInitiativeDto } from './create-initiative.dto';

export class CreateInitiativeCommand {
  constructor(
    readonly actor: Actor,
    readonly dto: CreateInitiativeDto,
  ) {}
}
