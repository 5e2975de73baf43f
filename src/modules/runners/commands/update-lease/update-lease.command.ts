import type { Actor } from '../../../../common/auth/principal';

export class UpdateLeaseCommand {
  constructor(
    readonly actor: Actor,
    readonly leaseId: string,
    readonly body: unknown,
  ) {}
}
