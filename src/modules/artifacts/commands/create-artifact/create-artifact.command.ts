import type { Actor } from '../../../../common/auth/principal';
import type { CreateArtifactDto } from './create-artifact.dto';

export class CreateArtifactCommand {
  constructor(
    readonly actor: Actor,
    readonly dto: CreateArtifactDto,
    /** Raw `projection` query value */
    readonly projection: unknown,
  ) {}
}
