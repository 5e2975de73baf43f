import type { Actor } from '../../../../common/auth/principal';
import type { RunSyncNowDto } from './run-sync-now.dto';

export class RunSyncNowCommand {
  constructor(
    readonly actor: Actor,
    readonly kpiId: string,
    readonly syncId: string,
    readonly dto: RunSyncNowDto,
  ) {}
}
