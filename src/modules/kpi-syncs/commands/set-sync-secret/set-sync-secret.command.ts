import type { Actor } from '../../../../common/auth/principal';
import type { SetSyncSecretDto } from './set-sync-secret.dto';

export class SetSyncSecretCommand {
  constructor(
    readonly actor: Actor,
    readonly kpiId: string,
    readonly syncId: string,
    readonly dto: SetSyncSecretDto,
  ) {}
}
