import type { Actor } from '../../../../common/auth/principal';

export class ListAttentionQuery {
  constructor(
    readonly actor: Actor,
    readonly executionId: string,
  ) {}
}
