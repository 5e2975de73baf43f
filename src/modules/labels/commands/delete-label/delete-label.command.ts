import type { Actor } from '../../../../common/auth/principal';

export class DeleteLabelCommand {
  constructor(
    readonly actor: Actor,
    readonly labelId: string,
  ) {}
}
