import type { Actor } from '../../../../common/auth/principal';

export class DeleteHeartbeatPolicyCommand {
  constructor(
    readonly actor: Actor,
    readonly agentId: string,
  ) {}
}
