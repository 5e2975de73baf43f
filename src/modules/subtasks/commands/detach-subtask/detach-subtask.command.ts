import type { Actor } from '../../../../common/auth/principal';

export class DetachSubtaskCommand {
  constructor(
    readonly actor: Actor,
    readonly parentId: string,
    readonly subtaskId: string,
  ) {}
}
