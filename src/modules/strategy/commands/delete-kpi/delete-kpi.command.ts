import type { Actor } from '../../../../common/auth/principal';

export class DeleteKpiCommand {
  constructor(
    readonly actor: Actor,
    readonly kpiId: string,
  ) {}
}
