import type { Actor } from '../../../../common/auth/principal';
import type { UpdateWebhookDto } from './update-webhook.dto';

export class UpdateWebhookCommand {
  constructor(
    readonly actor: Actor,
    readonly webhookId: string,
    readonly dto: UpdateWebhookDto,
  ) {}
}
