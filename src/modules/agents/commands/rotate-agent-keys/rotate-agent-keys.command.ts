import type { Actor } from '../../../../common/auth/principal';

export class RotateAgentKeysCommand {
  constructor(
    readonly actor: Actor,
    readonly agentId: string,
  ) {}
}
