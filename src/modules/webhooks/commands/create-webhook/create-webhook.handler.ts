import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Clock } from '../../../../common/clock/clock';
import { Errors } from '../../../../common/errors/domain-error';
import { APP_CONFIG, type AppConfig } from '../../../../config/config';
import { displayOf, parseAuth, parseStandard, parseUrl } from '../../webhook-input';
import { WebhookDestinations } from '../../webhook-destinations.service';
import { toWebhookResponse } from '../../webhooks.mapper';
import { WebhooksRepository } from '../../webhooks.repository';
import type { WebhookCreatedEnvelope } from '../../webhooks.response';
import { CreateWebhookCommand } from './create-webhook.command';
import { TxRunner } from '../../../../database/tx-runner';

/**
 * Owners and admins (humans or agents with that role) create destinations; the signing secret is
 * returned once. At most WEBHOOKS_PER_ORG_MAX per organization (422 `webhook_limit_reached`),
 * exact under concurrent creations (they are serialized per organization, see WebhooksRepository.lockCreation).
 */
@CommandHandler(CreateWebhookCommand)
export class CreateWebhookHandler implements ICommandHandler<CreateWebhookCommand, WebhookCreatedEnvelope> {
  constructor(
    private readonly tx: TxRunner,
    private readonly access: AccessPolicyService,
    private readonly destinations: WebhookDestinations,
    private readonly webhooks: WebhooksRepository,
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
    return this.tx.run(async (m) => {
      await this.webhooks.lockCreation(actor.orgId, m);
      const usage = await this.webhooks.count(actor.orgId, m);
      const limit = this.config.webhooksPerOrgMax;
      if (usage >= limit)
        throw Errors.unprocessable(`An organization can have at most ${limit} webhooks; delete one first`, 'webhook_limit_reached', { limit, usage });
      const versionId = await this.destinations.writeVersion(actor.orgId, id, { url, bearer, standard }, undefined, m);
      await this.webhooks.insert(
        actor.orgId,
        {
          id,
          destinationDisplay: displayOf(url),
          events: dto.events ?? [],
          enabled: dto.enabled ?? true,
          purpose: dto.purpose ?? 'webhook',
          versionId,
          createdByMemberId: actor.memberId,
          now,
        },
        m,
      );
      const secret = await this.destinations.newSigningKey(actor.orgId, id, m);
      return { webhook: toWebhookResponse(await this.destinations.get(actor.orgId, id, false, m)), secret };
    });
  }
}
