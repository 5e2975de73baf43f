import type { Actor } from '../../../../common/auth/principal';
import type { SyncConfigDto } from '../../sync-config.dto';

export class CreateSyncCommand {
  constructor(
    readonly actor: Actor,
    readonly kpiId: string,
    readonly dto: SyncConfigDto,
  ) {}
}
