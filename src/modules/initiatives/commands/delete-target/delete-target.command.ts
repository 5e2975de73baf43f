import type { Actor } from '../../../../common/auth/principal';

export class DeleteTargetCommand {
  constructor(
    readonly actor: Actor,
    readonly initiativeId: string,
    readonly targetId: string,
  ) {}
}
