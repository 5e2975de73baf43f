import { Injectable } from '@nestjs/common';
import { type EntityManager } from 'typeorm';
import type { Actor } from '../../common/auth/principal';
import { AccessPolicyService } from '../../common/access/access-policy.service';
import { Errors } from '../../common/errors/domain-error';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookOutbox } from './webhook-outbox.service';
import { toDeliveryResponse } from './webhooks.mapper';
import type { DeliveryEvent } from './webhooks.constants';
import type { WebhookDeliveryEnvelope } from './webhooks.response';
import { TxRunner } from '../../database/tx-runner';

/**
 * Deliveries made by hand (ping, redelivery): a new delivery record with new ids, pinned to the
 * destination's current version and active signing keys, sent even when the destination is disabled.
 */
@Injectable()
export class WebhookManualDelivery {
  constructor(
    private readonly tx: TxRunner,
    private readonly access: AccessPolicyService,
    private readonly outbox: WebhookOutbox,
    private readonly deliveries: WebhookDeliveriesRepository,
  ) {}

  async create(
    actor: Actor,
    webhookId: string,
    make: (m: EntityManager) => Promise<{ event: DeliveryEvent; schemaVersion: number; body: string; redeliveryOf?: string; issueId?: string | null }>,
  ): Promise<WebhookDeliveryEnvelope> {
    this.access.assertOrgAdmin(actor, 'Only organization owners and admins can manage webhooks');
    const row = await this.tx.run(async (m) => {
      const [dest] = await this.outbox.destinations(m, actor.orgId, { webhookId, includeDisabled: true });
      if (!dest) throw Errors.notFound('Webhook not found');
      const d = await make(m);
      const [ref] = await this.outbox.insert(m, [{ orgId: actor.orgId, webhookId, versionId: dest.version_id, signingVersions: dest.signing_versions, ...d }]);
      this.outbox.afterCommit(m, [ref]);
      return (await this.deliveries.find(actor.orgId, ref.id, m))!;
    });
    return { delivery: toDeliveryResponse(row) };
  }
}
