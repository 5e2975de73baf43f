import type { Actor } from '../../../../common/auth/principal';

export class DeleteWebhookCommand {
  constructor(
    readonly actor: Actor,
    readonly webhookId: string,
  ) {}
}
