import type { Actor } from '../../../../common/auth/principal';

export class ListAttachmentsQuery {
  constructor(
    readonly actor: Actor,
    readonly issueId: string,
  ) {}
}
