import type { Actor } from '../../../../common/auth/principal';

export class RedeliverWebhookCommand {
  constructor(
    readonly actor: Actor,
    readonly webhookId: string,
    /** The delivery record id or its `delivery_id` */
    readonly deliveryRef: string,
  ) {}
}
