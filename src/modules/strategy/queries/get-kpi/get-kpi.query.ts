import type { Actor } from '../../../../common/auth/principal';

export class GetKpiQuery {
  constructor(
    readonly actor: Actor,
    readonly kpiId: string,
  ) {}
}
