import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Clock } from '../../../../common/clock/clock';
import { APP_CONFIG, type AppConfig } from '../../../../config/config';
import { displayOf, parseAuth, parseStandard, parseUrl } from '../../webhook-input';
import { WebhookStore } from '../../webhook-store.service';
import { toWebhookResponse } from '../../webhooks.mapper';
import type { WebhookCreatedEnvelope } from '../../webhooks.response';
import { CreateWebhookCommand } from './create-webhook.command';

/** Owners and admins (humans or agents with that role) create destinations; the signing secret is returned once. */
@CommandHandler(CreateWebhookCommand)
export class CreateWebhookHandler implements ICommandHandler<CreateWebhookCommand, WebhookCreatedEnvelope> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
    private readonly store: WebhookStore,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ actor, dto }: CreateWebhookCommand): Promise<WebhookCreatedEnvelope> {
    this.access.assertOrgAdmin(actor, 'Only organization owners and admins can manage webhooks');
    const url = parseUrl(dto.url, this.config.allowLoopbackWebhooks);
    const bearer = parseAuth(dto.auth, false) ?? null;
    const standard = parseStandard(dto.standard_webhooks, false) ?? null;
    const id = randomUUID();
    const now = this.clock.now();
    return this.db.transaction(async (m) => {
      const versionId = await this.store.writeVersion(m, actor.orgId, id, { url, bearer, standard });
      await m.query(
        `INSERT INTO webhooks (org_id, id, destination_display, events, enabled, purpose, current_version_id, created_by_member_id, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)`,
        [actor.orgId, id, displayOf(url), dto.events ?? [], dto.enabled ?? true, dto.purpose ?? 'webhook', versionId, actor.memberId, now],
      );
      const secret = await this.store.newSigningKey(m, actor.orgId, id);
      return { webhook: toWebhookResponse(await this.store.get(m, actor.orgId, id)), secret };
    });
  }
}
