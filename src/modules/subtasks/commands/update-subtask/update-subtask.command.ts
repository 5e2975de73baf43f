import type { Actor } from '../../../../common/auth/principal';
import type { UpdateSubtaskDto } from './update-subtask.dto';

export class UpdateSubtaskCommand {
  constructor(
    readonly actor: Actor,
    readonly parentId: string,
    readonly subtaskId: string,
    readonly dto: UpdateSubtaskDto,
  ) {}
}
