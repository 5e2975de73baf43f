import type { Actor } from '../../../../common/auth/principal';

export class GetLabelQuery {
  constructor(
    readonly actor: Actor,
    readonly labelId: string,
  ) {}
}
