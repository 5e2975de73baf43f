import type { Actor } from '../../../../common/auth/principal';

export class GetTeamQuery {
  constructor(
    readonly actor: Actor,
    readonly teamId: string,
  ) {}
}
