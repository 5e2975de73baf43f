import type { Actor } from '../../../../common/auth/principal';
import type { CreateRevisionDto } from './create-revision.dto';

export class CreateRevisionCommand {
  constructor(
    readonly actor: Actor,
    readonly artifactId: string,
    readonly dto: CreateRevisionDto,
    /** Raw `projection` query value */
    readonly projection: unknown,
  ) {}
}
