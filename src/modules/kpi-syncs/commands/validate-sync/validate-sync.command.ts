import type { Actor } from '../../../../common/auth/principal';

export class ValidateSyncCommand {
  constructor(
    readonly actor: Actor,
    readonly kpiId: string,
    readonly syncId: string,
  ) {}
}
