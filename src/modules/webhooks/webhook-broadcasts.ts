import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  ArtifactChangedEvent,
  AttentionResolvedEvent,
  type DomainEvent,
  DomainEvents,
  type EventActor,
  ProjectStatusUpdatedEvent,
} from '../../common/events/domain-events';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookOutbox } from './webhook-outbox.service';
import { BROADCAST_SCHEMA_VERSION, type SubscribableEvent } from './webhooks.constants';

/** The fields every broadcast body starts with after `event` and `schema_version`. */
const envelope = (orgId: string, at: Date, actor: EventActor) => ({
  occurred_at: at.toISOString(),
  organization_id: orgId,
  actor: { type: actor.type, member_id: actor.memberId },
});

/**
 * Subscription broadcasts (schema version 2) of the staged events other than issue changes
 * (WebhookIssueEvents): one delivery row per enabled destination subscribed to the event (purpose
 * `webhook` or `both`), written in the writer's transaction and enqueued after its commit (the
 * worker's drain covers a missed enqueue). Bodies carry bounded identifiers and names, never
 * content, questions, answers or summaries:
 * - `artifact.created` / `artifact.revised`: `artifact` (id, type, title, timestamps, current
 *   revision), `revision` (id, number, title snapshot, format, digest, created_at) and `links`;
 * - `attention.resolved`: the item (id, state, version, requester), its execution and the issue;
 * - `project.status_updated`: the `project` (id, key, name) and the `status_update` (id, status,
 *   previous status, created_at).
 */
@Injectable()
export class WebhookBroadcasts implements OnModuleInit {
  constructor(
    private readonly events: DomainEvents,
    private readonly outbox: WebhookOutbox,
    private readonly deliveries: WebhookDeliveriesRepository,
  ) {}

  onModuleInit(): void {
    this.events.register({ onStaged: (m, e) => this.onStaged(m, e) });
  }

  async onStaged(m: EntityManager, e: DomainEvent): Promise<void> {
    if (e instanceof ArtifactChangedEvent) {
      await this.broadcast(m, e.orgId, e.kind === 'created' ? 'artifact.created' : 'artifact.revised', () => ({
        ...envelope(e.orgId, e.at, e.actor),
        artifact: { ...e.artifact, current_revision_id: e.revision.id, revision_number: e.revision.revision_number },
        revision: e.revision,
        links: e.links,
      }));
    } else if (e instanceof AttentionResolvedEvent) {
      await this.broadcast(
        m,
        e.orgId,
        'attention.resolved',
        async () => {
          const [r] = await this.deliveries.issuePayloadRows(e.orgId, [e.issueId], m);
          if (!r) return null;
          return {
            ...envelope(e.orgId, e.at, e.actor),
            attention_item: { id: e.attentionItemId, state: 'resolved', version: e.itemVersion, requester_member_id: e.requesterMemberId },
            execution: { id: e.executionId, state: 'waiting', state_version: e.executionStateVersion },
            issue: { id: r.id, identifier: `${r.project_key ?? r.issue_prefix}-${r.number}`, number: r.number, title: r.title, project_id: r.project_id },
            project: r.project_id ? { id: r.project_id, key: r.project_key, name: r.project_name } : null,
          };
        },
        e.issueId,
      );
    } else if (e instanceof ProjectStatusUpdatedEvent) {
      await this.broadcast(m, e.orgId, 'project.status_updated', () => ({
        ...envelope(e.orgId, e.at, e.actor),
        project: e.project,
        status_update: e.statusUpdate,
      }));
    }
  }

  /** Writes the deliveries of one event to its subscribers (none: nothing, and `body` is not built). */
  private async broadcast(
    m: EntityManager,
    orgId: string,
    event: SubscribableEvent,
    body: () => Record<string, unknown> | null | Promise<Record<string, unknown> | null>,
    issueId?: string,
  ): Promise<void> {
    const dests = await this.outbox.destinations(m, orgId, { event, purposes: ['webhook', 'both'] });
    if (!dests.length) return;
    const fields = await body();
    if (!fields) return;
    const json = JSON.stringify({ event, schema_version: BROADCAST_SCHEMA_VERSION, ...fields });
    const refs = await this.outbox.insert(
      m,
      dests.map((d) => ({
        orgId,
        webhookId: d.id,
        versionId: d.version_id,
        signingVersions: d.signing_versions,
        event,
        schemaVersion: BROADCAST_SCHEMA_VERSION,
        body: json,
        issueId: issueId ?? null,
      })),
    );
    this.outbox.afterCommit(m, refs);
  }
}
