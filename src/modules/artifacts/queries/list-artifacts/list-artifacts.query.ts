import type { Actor } from '../../../../common/auth/principal';

export class ListArtifactsQuery {
  constructor(
    readonly actor: Actor,
    readonly query: Record<string, unknown>,
  ) {}
}
