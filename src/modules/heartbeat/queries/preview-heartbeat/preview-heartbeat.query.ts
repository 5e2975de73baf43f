import type { Actor } from '../../../../common/auth/principal';

export class PreviewHeartbeatQuery {
  constructor(
    readonly actor: Actor,
    readonly agentId: string,
    readonly body: Record<string, unknown>,
    readonly view: unknown,
  ) {}
}
