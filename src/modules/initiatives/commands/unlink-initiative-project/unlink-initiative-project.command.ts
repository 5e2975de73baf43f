import type { Actor } from '../../../../common/auth/principal';

export class UnlinkInitiativeProjectCommand {
  constructor(
    readonly actor: Actor,
    readonly initiativeId: string,
    readonly projectId: unknown,
  ) {}
}
