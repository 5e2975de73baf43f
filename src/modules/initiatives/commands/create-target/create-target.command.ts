import type { Actor } from '../../../../common/auth/principal';
import type { CreateTargetDto } from './create-target.dto';

export class CreateTargetCommand {
  constructor(
    readonly actor: Actor,
    readonly initiativeId: string,
    readonly dto: CreateTargetDto,
  ) {}
}
