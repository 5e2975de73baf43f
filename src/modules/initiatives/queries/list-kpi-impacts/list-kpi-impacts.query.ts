import type { Actor } from '../../../../common/auth/principal';

export class ListKpiImpactsQuery {
  constructor(
    readonly actor: Actor,
    readonly initiativeId: string,
  ) {}
}
