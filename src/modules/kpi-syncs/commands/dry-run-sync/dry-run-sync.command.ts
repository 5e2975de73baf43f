import type { Actor } from '../../../../common/auth/principal';

export class DryRunSyncCommand {
  constructor(
    readonly actor: Actor,
    readonly kpiId: string,
    readonly syncId: string,
  ) {}
}
