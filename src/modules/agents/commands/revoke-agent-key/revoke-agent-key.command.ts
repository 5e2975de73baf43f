import type { Actor } from '../../../../common/auth/principal';

export class RevokeAgentKeyCommand {
  constructor(
    readonly actor: Actor,
    readonly agentId: string,
    readonly keyId: string,
  ) {}
}
