import type { Actor } from '../../../../common/auth/principal';

export class GetExecutionQuery {
  constructor(
    readonly actor: Actor,
    readonly executionId: string,
  ) {}
}
