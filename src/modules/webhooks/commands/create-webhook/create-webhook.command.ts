import type { Actor } from '../../../../common/auth/principal';
import type { CreateWebhookDto } from './create-webhook.dto';

export class CreateWebhookCommand {
  constructor(
    readonly actor: Actor,
    readonly dto: CreateWebhookDto,
  ) {}
}
