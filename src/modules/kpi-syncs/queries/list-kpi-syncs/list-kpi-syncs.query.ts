import type { Actor } from '../../../../common/auth/principal';

export class ListKpiSyncsQuery {
  constructor(
    readonly actor: Actor,
    readonly kpiId: string,
    readonly query: Record<string, unknown>,
  ) {}
}
