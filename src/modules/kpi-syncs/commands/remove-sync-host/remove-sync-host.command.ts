import type { Actor } from '../../../../common/auth/principal';

export class RemoveSyncHostCommand {
  constructor(
    readonly actor: Actor,
    readonly host: string,
  ) {}
}
