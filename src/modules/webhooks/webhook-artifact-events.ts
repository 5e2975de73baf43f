import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ArtifactChangedEvent, type DomainEvent, DomainEvents } from '../../common/events/domain-events';
import { WebhookOutbox } from './webhook-outbox.service';
import { BROADCAST_SCHEMA_VERSION, type SubscribableEvent } from './webhooks.constants';

/**
 * Subscription broadcasts of artifact events (schema version 2, like every broadcast):
 * `artifact.created` and `artifact.revised`, one delivery row per enabled subscribed destination
 * (purpose `webhook` or `both`) written in the artifact writer's transaction and enqueued after its
 * commit. Body: `event`, `schema_version`, `occurred_at`, `organization_id`, `actor`, `artifact`
 * (id, type, title, timestamps), `revision` (id, number, title snapshot, format, digest, created_at;
 * never the content) and `links` (target type and id).
 */
@Injectable()
export class WebhookArtifactEvents implements OnModuleInit {
  constructor(
    private readonly events: DomainEvents,
    private readonly outbox: WebhookOutbox,
  ) {}

  onModuleInit(): void {
    this.events.register({ onStaged: (m, e) => this.onStaged(m, e) });
  }

  async onStaged(m: EntityManager, e: DomainEvent): Promise<void> {
    if (!(e instanceof ArtifactChangedEvent)) return;
    const event: SubscribableEvent = e.kind === 'created' ? 'artifact.created' : 'artifact.revised';
    const dests = await this.outbox.destinations(m, e.orgId, { event, purposes: ['webhook', 'both'] });
    if (!dests.length) return;
    const body = JSON.stringify({
      event,
      schema_version: BROADCAST_SCHEMA_VERSION,
      occurred_at: e.at.toISOString(),
      organization_id: e.orgId,
      actor: { type: e.actor.type, member_id: e.actor.memberId },
      artifact: { ...e.artifact, current_revision_id: e.revision.id, revision_number: e.revision.revision_number },
      revision: e.revision,
      links: e.links,
    });
    const refs = await this.outbox.insert(
      m,
      dests.map((d) => ({
        orgId: e.orgId,
        webhookId: d.id,
        versionId: d.version_id,
        signingVersions: d.signing_versions,
        event,
        schemaVersion: BROADCAST_SCHEMA_VERSION,
        body,
      })),
    );
    this.outbox.afterCommit(m, refs);
  }
}
