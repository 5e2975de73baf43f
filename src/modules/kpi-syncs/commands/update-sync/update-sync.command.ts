import type { Actor } from '../../../../common/auth/principal';
import type { SyncConfigDto } from '../../sync-config.dto';

export class UpdateSyncCommand {
  constructor(
    readonly actor: Actor,
    readonly kpiId: string,
    readonly syncId: string,
    readonly dto: SyncConfigDto,
  ) {}
}
