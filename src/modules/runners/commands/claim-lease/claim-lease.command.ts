import type { Actor } from '../../../../common/auth/principal';

export class ClaimLeaseCommand {
  constructor(
    readonly actor: Actor,
    readonly body: unknown,
  ) {}
}
