import type { Actor } from '../../../../common/auth/principal';

export class PutRunnerSelfCommand {
  constructor(
    readonly actor: Actor,
    readonly body: unknown,
  ) {}
}
