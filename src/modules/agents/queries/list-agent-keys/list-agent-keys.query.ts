import type { Actor } from '../../../../common/auth/principal';

export class ListAgentKeysQuery {
  constructor(
    readonly actor: Actor,
    readonly agentId: string,
  ) {}
}
