import type { Actor } from '../../../../common/auth/principal';

export class SetRunnerIntakeCommand {
  constructor(
    readonly actor: Actor,
    readonly runnerId: string,
    readonly body: unknown,
  ) {}
}
