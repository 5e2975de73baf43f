import type { Actor } from '../../../../common/auth/principal';

export class RevokeAgentCommand {
  constructor(
    readonly actor: Actor,
    readonly agentId: string,
  ) {}
}
