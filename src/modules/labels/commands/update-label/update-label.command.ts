import type { Actor } from '../../../../common/auth/principal';

export class UpdateLabelCommand {
  constructor(
    readonly actor: Actor,
    readonly labelId: string,
    readonly changes: { name?: string; color?: string | null; description?: string | null },
  ) {}
}
