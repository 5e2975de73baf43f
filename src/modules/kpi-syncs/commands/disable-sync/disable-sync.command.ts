import type { Actor } from '../../../../common/auth/principal';

export class DisableSyncCommand {
  constructor(
    readonly actor: Actor,
    readonly kpiId: string,
    readonly syncId: string,
  ) {}
}
