import type { Actor } from '../../../../common/auth/principal';

export class CreateLabelCommand {
  constructor(
    readonly actor: Actor,
    readonly input: { name: string; color?: string | null; description?: string | null },
  ) {}
}
