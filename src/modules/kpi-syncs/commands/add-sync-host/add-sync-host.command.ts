import type { Actor } from '../../../../common/auth/principal';
import type { AddSyncHostDto } from './add-sync-host.dto';

export class AddSyncHostCommand {
  constructor(
    readonly actor: Actor,
    readonly dto: AddSyncHostDto,
  ) {}
}
