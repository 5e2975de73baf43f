import type { Actor } from '../../../../common/auth/principal';

export class ListSnapshotsQuery {
  constructor(
    readonly actor: Actor,
    readonly kpiId: string,
    readonly query: Record<string, unknown>,
  ) {}
}
