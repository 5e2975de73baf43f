import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { WebhooksRepository } from '../../webhooks.repository';
import { DeleteWebhookCommand } from './delete-webhook.command';

/** Deletes the destination with its versions, keys and delivery history (queued deliveries are dropped). */
@CommandHandler(DeleteWebhookCommand)
export class DeleteWebhookHandler implements ICommandHandler<DeleteWebhookCommand, { success: true }> {
  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, webhookId }: DeleteWebhookCommand): Promise<{ success: true }> {
    this.access.assertOrgAdmin(actor, 'Only organization owners and admins can manage webhooks');
    if (!(await this.webhooks.delete(actor.orgId, webhookId))) throw Errors.notFound('Webhook not found');
    return { success: true };
  }
}
