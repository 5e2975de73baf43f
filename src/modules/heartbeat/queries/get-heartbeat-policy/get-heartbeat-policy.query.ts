import type { Actor } from '../../../../common/auth/principal';

export class GetHeartbeatPolicyQuery {
  constructor(
    readonly actor: Actor,
    readonly agentId: string,
  ) {}
}
