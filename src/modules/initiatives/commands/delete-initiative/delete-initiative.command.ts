import type { Actor } from '../../../../common/auth/principal';

export class DeleteInitiativeCommand {
  constructor(
    readonly actor: Actor,
    readonly initiativeId: string,
  ) {}
}
