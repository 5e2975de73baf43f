import type { Actor } from '../../../../common/auth/principal';

export class ListRevisionsQuery {
  constructor(
    readonly actor: Actor,
    readonly artifactId: string,
    readonly query: Record<string, unknown>,
  ) {}
}
