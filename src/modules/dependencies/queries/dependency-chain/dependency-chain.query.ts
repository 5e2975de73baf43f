import type { Actor } from '../../../../common/auth/principal';

export class DependencyChainQuery {
  constructor(
    readonly actor: Actor,
    readonly issueId: string,
    /** Raw query string values: direction, depth, limit, cursor */
    readonly params: Record<string, unknown>,
  ) {}
}
