import type { Actor } from '../../../../common/auth/principal';

export class GetAttentionQuery {
  constructor(
    readonly actor: Actor,
    readonly itemId: string,
  ) {}
}
