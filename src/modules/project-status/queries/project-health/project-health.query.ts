import type { Actor } from '../../../../common/auth/principal';

export class ProjectHealthQuery {
  constructor(readonly actor: Actor) {}
}
