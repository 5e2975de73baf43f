import type { Actor } from '../../../../common/auth/principal';

export class CreateTemplateCommand {
  constructor(
    readonly actor: Actor,
    readonly body: Record<string, unknown>,
  ) {}
}
