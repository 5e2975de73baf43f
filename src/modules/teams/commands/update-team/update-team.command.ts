import type { Actor } from '../../../../common/auth/principal';

export class UpdateTeamCommand {
  constructor(
    readonly actor: Actor,
    readonly teamId: string,
    readonly changes: { name?: string; slug?: string; description?: string | null },
  ) {}
}
