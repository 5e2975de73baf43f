import type { Actor } from '../../../../common/auth/principal';

export class DeleteAvatarCommand {
  constructor(
    readonly actor: Actor,
    readonly memberId: string,
  ) {}
}
