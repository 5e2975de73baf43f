import type { Actor } from '../../../../common/auth/principal';

export class ListWebhookDeliveriesQuery {
  constructor(
    readonly actor: Actor,
    readonly webhookId: string,
    readonly limit: number,
  ) {}
}
