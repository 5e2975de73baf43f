import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Clock } from '../../../../common/clock/clock';
import { APP_CONFIG, type AppConfig } from '../../../../config/config';
import { displayOf, parseAuth, parseStandard, parseUrl } from '../../webhook-input';
import { WebhookStore } from '../../webhook-store.service';
import { toWebhookResponse } from '../../webhooks.mapper';
import type { WebhookResponse } from '../../webhooks.response';
import { UpdateWebhookCommand } from './update-webhook.command';

/**
 * PATCH: omitted fields are preserved. A URL, bearer token or Standard secret change writes a new
 * private destination version; deliveries already queued keep the version they pinned.
 */
@CommandHandler(UpdateWebhookCommand)
export class UpdateWebhookHandler implements ICommandHandler<UpdateWebhookCommand, { webhook: WebhookResponse; secret?: string }> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
    private readonly store: WebhookStore,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ actor, webhookId, dto }: UpdateWebhookCommand): Promise<{ webhook: WebhookResponse; secret?: string }> {
    this.access.assertOrgAdmin(actor, 'Only organization owners and admins can manage webhooks');
    const url = dto.url === undefined ? undefined : parseUrl(dto.url, this.config.allowLoopbackWebhooks);
    return this.db.transaction(async (m) => {
      const hook = await this.store.get(m, actor.orgId, webhookId, true);
      const current = await this.store.version(m, actor.orgId, hook.current_version_id);
      const bearer = parseAuth(dto.auth, current.bearer_enc !== null);
      const standard = parseStandard(dto.standard_webhooks, current.standard_secret_enc !== null);
      const changed =
        (url !== undefined && url !== this.store.decrypt(current.url_enc)) ||
        (bearer !== undefined && !(bearer === null && current.bearer_enc === null)) ||
        (standard !== undefined && !(standard === null && current.standard_secret_enc === null));
      const versionId = changed ? await this.store.writeVersion(m, actor.orgId, webhookId, { url, bearer, standard }, current) : hook.current_version_id;
      await m.query(
        `UPDATE webhooks SET events = COALESCE($3, events), enabled = COALESCE($4, enabled), purpose = COALESCE($5, purpose),
                destination_display = $6, current_version_id = $7, updated_at = $8
          WHERE org_id = $1 AND id = $2`,
        [actor.orgId, webhookId, dto.events ?? null, dto.enabled ?? null, dto.purpose ?? null, url ? displayOf(url) : hook.destination_display, versionId, this.clock.now()],
      );
      const secret = dto.rotate_secret ? await this.store.newSigningKey(m, actor.orgId, webhookId) : undefined;
      return { webhook: toWebhookResponse(await this.store.get(m, actor.orgId, webhookId)), ...(secret ? { secret } : {}) };
    });
  }
}
