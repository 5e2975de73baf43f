import type { Actor } from '../../../../common/auth/principal';

export class ListPrLinksQuery {
  constructor(
    readonly actor: Actor,
    readonly issueId: string,
  ) {}
}
