import type { Actor } from '../../../../common/auth/principal';

export class ListSubtasksQuery {
  constructor(
    readonly actor: Actor,
    readonly parentId: string,
  ) {}
}
