import type { Actor } from '../../../../common/auth/principal';

export class CreateTeamCommand {
  constructor(
    readonly actor: Actor,
    readonly input: { name: string; slug?: string | null; description?: string | null },
  ) {}
}
