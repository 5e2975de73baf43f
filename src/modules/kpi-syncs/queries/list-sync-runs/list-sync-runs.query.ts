import type { Actor } from '../../../../common/auth/principal';

export class ListSyncRunsQuery {
  constructor(
    readonly actor: Actor,
    readonly kpiId: string,
    readonly syncId: string,
    readonly query: Record<string, unknown>,
  ) {}
}
