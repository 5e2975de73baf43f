import type { Actor } from '../../../../common/auth/principal';

export class CreatePrLinkCommand {
  constructor(
    readonly actor: Actor,
    readonly issueId: string,
    readonly url: unknown,
  ) {}
}
