import type { Actor } from '../../../../common/auth/principal';

export class UpdateTemplateCommand {
  constructor(
    readonly actor: Actor,
    readonly templateId: string,
    readonly body: Record<string, unknown>,
  ) {}
}
