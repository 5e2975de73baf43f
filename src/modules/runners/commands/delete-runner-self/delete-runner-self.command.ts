import type { Actor } from '../../../../common/auth/principal';

export class DeleteRunnerSelfCommand {
  constructor(readonly actor: Actor) {}
}
