import type { Actor } from '../../../../common/auth/principal';

export class GetAnalyticsQuery {
  constructor(
    readonly actor: Actor,
    readonly query: Record<string, unknown>,
  ) {}
}
