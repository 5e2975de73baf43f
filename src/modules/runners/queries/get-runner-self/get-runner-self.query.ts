import type { Actor } from '../../../../common/auth/principal';

export class GetRunnerSelfQuery {
  constructor(readonly actor: Actor) {}
}
