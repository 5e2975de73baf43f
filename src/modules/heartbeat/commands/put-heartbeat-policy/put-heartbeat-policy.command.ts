import type { Actor } from '../../../../common/auth/principal';

export class PutHeartbeatPolicyCommand {
  constructor(
    readonly actor: Actor,
    readonly agentId: string,
    readonly body: Record<string, unknown>,
  ) {}
}
