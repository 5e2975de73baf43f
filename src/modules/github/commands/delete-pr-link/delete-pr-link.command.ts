import type { Actor } from '../../../../common/auth/principal';

export class DeletePrLinkCommand {
  constructor(
    readonly actor: Actor,
    readonly issueId: string,
    readonly linkId: string,
  ) {}
}
