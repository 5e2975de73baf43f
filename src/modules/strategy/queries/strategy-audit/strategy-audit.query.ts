import type { Actor } from '../../../../common/auth/principal';

export class StrategyAuditQuery {
  constructor(
    readonly actor: Actor,
    readonly query: Record<string, unknown>,
  ) {}
}
