import type { Actor } from '../../../../common/auth/principal';

export class TestWebhookCommand {
  constructor(
    readonly actor: Actor,
    readonly webhookId: string,
  ) {}
}
