import type { Actor } from '../../../../common/auth/principal';

export class RemoveKpiImpactCommand {
  constructor(
    readonly actor: Actor,
    readonly initiativeId: string,
    readonly impactId: string,
  ) {}
}
