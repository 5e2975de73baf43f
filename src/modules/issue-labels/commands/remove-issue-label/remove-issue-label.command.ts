import type { Actor } from '../../../../common/auth/principal';

export class RemoveIssueLabelCommand {
  constructor(
    readonly actor: Actor,
    readonly issueId: string,
    readonly labelId: string,
  ) {}
}
