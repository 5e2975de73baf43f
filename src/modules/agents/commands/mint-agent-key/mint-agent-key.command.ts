import type { Actor } from '../../../../common/auth/principal';

export class MintAgentKeyCommand {
  constructor(
    readonly actor: Actor,
    readonly agentId: string,
  ) {}
}
