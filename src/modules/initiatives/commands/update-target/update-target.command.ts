import type { Actor } from '../../../../common/auth/principal';
import type { UpdateTargetDto } from './update-target.dto';

export class UpdateTargetCommand {
  constructor(
    readonly actor: Actor,
    readonly initiativeId: string,
    readonly targetId: string,
    readonly dto: UpdateTargetDto,
  ) {}
}
