import type { Actor } from '../../../../common/auth/principal';

export class RemoveMemberCommand {
  constructor(
    readonly actor: Actor,
    readonly memberId: string,
  ) {}
}
