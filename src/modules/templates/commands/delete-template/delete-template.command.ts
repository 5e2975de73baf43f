import type { Actor } from '../../../../common/auth/principal';

export class DeleteTemplateCommand {
  constructor(
    readonly actor: Actor,
    readonly templateId: string,
  ) {}
}
