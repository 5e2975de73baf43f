import type { Actor } from '../../../../common/auth/principal';

export class GetArtifactQuery {
  constructor(
    readonly actor: Actor,
    readonly artifactId: string,
  ) {}
}
