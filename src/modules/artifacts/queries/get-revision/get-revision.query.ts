import type { Actor } from '../../../../common/auth/principal';

export class GetRevisionQuery {
  constructor(
    readonly actor: Actor,
    readonly artifactId: string,
    readonly revisionId: string,
    /** Raw `projection` query value */
    readonly projection: unknown,
  ) {}
}
