import type { Actor } from '../../../../common/auth/principal';
import type { CreateSubtaskDto } from './create-subtask.dto';

export class CreateSubtaskCommand {
  constructor(
    readonly actor: Actor,
    readonly parentId: string,
    readonly dto: CreateSubtaskDto,
  ) {}
}
