import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { DeleteWebhookCommand } from './delete-webhook.command';

/** Deletes the destination with its versions, keys and delivery history (queued deliveries are dropped). */
@CommandHandler(DeleteWebhookCommand)
export class DeleteWebhookHandler implements ICommandHandler<DeleteWebhookCommand, { success: true }> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, webhookId }: DeleteWebhookCommand): Promise<{ success: true }> {
    this.access.assertOrgAdmin(actor, 'Only organization owners and admins can manage webhooks');
    const [rows] = await this.db.query('DELETE FROM webhooks WHERE org_id = $1 AND id = $2 RETURNING id', [actor.orgId, webhookId]);
    if (!rows?.length) throw Errors.notFound('Webhook not found');
    return { success: true };
  }
}
