import type { Actor } from '../../../../common/auth/principal';

export class DeleteConnectionCommand {
  constructor(
    readonly actor: Actor,
    readonly connectionId: string,
  ) {}
}
