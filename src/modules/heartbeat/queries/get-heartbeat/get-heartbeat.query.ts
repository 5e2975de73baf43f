import type { Actor } from '../../../../common/auth/principal';

export class GetHeartbeatQuery {
  constructor(
    readonly actor: Actor,
    readonly query: Record<string, unknown>,
  ) {}
}
