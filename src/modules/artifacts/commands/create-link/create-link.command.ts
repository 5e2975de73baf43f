import type { Actor } from '../../../../common/auth/principal';
import type { ArtifactLinkTargetDto } from '../create-artifact/create-artifact.dto';

export class CreateLinkCommand {
  constructor(
    readonly actor: Actor,
    readonly artifactId: string,
    readonly dto: ArtifactLinkTargetDto,
  ) {}
}
