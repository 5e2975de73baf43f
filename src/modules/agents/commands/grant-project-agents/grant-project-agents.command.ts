import type { Actor } from '../../../../common/auth/principal';

export class GrantProjectAgentsCommand {
  constructor(
    readonly actor: Actor,
    readonly projectId: string,
    readonly agentIds: string[] | undefined,
  ) {}
}
