import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Clock } from '../../../../common/clock/clock';
import { APP_CONFIG, type AppConfig } from '../../../../config/config';
import { displayOf, parseAuth, parseStandard, parseUrl } from '../../webhook-input';
import { WebhookDestinations } from '../../webhook-destinations.service';
import { toWebhookResponse } from '../../webhooks.mapper';
import { WebhooksRepository } from '../../webhooks.repository';
import type { WebhookResponse } from '../../webhooks.response';
import { UpdateWebhookCommand } from './update-webhook.command';
import { TxRunner } from '../../../../database/tx-runner';

/**
 * PATCH: omitted fields are preserved. A URL, bearer token or Standard secret change writes a new
 * private destination version; deliveries already queued keep the version they pinned.
 */
@CommandHandler(UpdateWebhookCommand)
export class UpdateWebhookHandler implements ICommandHandler<UpdateWebhookCommand, { webhook: WebhookResponse; secret?: string }> {
  constructor(
    private readonly tx: TxRunner,
    private readonly access: AccessPolicyService,
    private readonly destinations: WebhookDestinations,
    private readonly webhooks: WebhooksRepository,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ actor, webhookId, dto }: UpdateWebhookCommand): Promise<{ webhook: WebhookResponse; secret?: string }> {
    this.access.assertOrgAdmin(actor, 'Only organization owners and admins can manage webhooks');
    const url = dto.url === undefined ? undefined : parseUrl(dto.url, this.config.allowLoopbackWebhooks);
    return this.tx.run(async (m) => {
      const hook = await this.destinations.get(actor.orgId, webhookId, true, m);
      const current = await this.destinations.version(actor.orgId, hook.current_version_id, m);
      const bearer = parseAuth(dto.auth, current.bearer_enc !== null);
      const standard = parseStandard(dto.standard_webhooks, current.standard_secret_enc !== null);
      const changed =
        (url !== undefined && url !== this.destinations.urlOf(actor.orgId, webhookId, current)) ||
        (bearer !== undefined && !(bearer === null && current.bearer_enc === null)) ||
        (standard !== undefined && !(standard === null && current.standard_secret_enc === null));
      const versionId = changed ? await this.destinations.writeVersion(actor.orgId, webhookId, { url, bearer, standard }, current, m) : hook.current_version_id;
      await this.webhooks.update(
        actor.orgId,
        webhookId,
        {
          events: dto.events ?? null,
          enabled: dto.enabled ?? null,
          purpose: dto.purpose ?? null,
          destinationDisplay: url ? displayOf(url) : hook.destination_display,
          versionId,
          updatedAt: this.clock.now(),
        },
        m,
      );
      const secret = dto.rotate_secret ? await this.destinations.newSigningKey(actor.orgId, webhookId, m) : undefined;
      return { webhook: toWebhookResponse(await this.destinations.get(actor.orgId, webhookId, false, m)), ...(secret ? { secret } : {}) };
    });
  }
}
