import { Injectable, type OnModuleInit } from '@nestjs/common';
import { EventsHandler, type IEventHandler } from '@nestjs/cqrs';
import type { EntityManager } from 'typeorm';
import { AttentionResolvedEvent, type DomainEvent, DomainEvents } from '../../common/events/domain-events';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { type DeliveryRef, WebhookOutbox } from './webhook-outbox.service';
import { BROADCAST_SCHEMA_VERSION } from './webhooks.constants';

/**
 * Subscription broadcasts of `attention.resolved` (schema version 2): a human answered an agent's
 * attention request. The payload names the item, its execution and the issue (current
 * tenant-scoped fields); it never carries the question, the answer or the options.
 */
@Injectable()
export class WebhookAttentionEvents implements OnModuleInit {
  private readonly staged = new Map<string, { at: number; refs: DeliveryRef[] }>();

  constructor(
    private readonly events: DomainEvents,
    private readonly outbox: WebhookOutbox,
    private readonly deliveries: WebhookDeliveriesRepository,
  ) {}

  onModuleInit(): void {
    this.events.register({ onStaged: (m, e) => this.onStaged(m, e) });
  }

  async onStaged(m: EntityManager, e: DomainEvent): Promise<void> {
    if (!(e instanceof AttentionResolvedEvent)) return;
    const event = 'attention.resolved' as const;
    const dests = await this.outbox.destinations(m, e.orgId, { event, purposes: ['webhook', 'both'] });
    if (!dests.length) return;
    const [r] = await this.deliveries.issuePayloadRows(e.orgId, [e.issueId], m);
    if (!r) return;
    const body = JSON.stringify({
      event,
      schema_version: BROADCAST_SCHEMA_VERSION,
      occurred_at: e.at.toISOString(),
      organization_id: e.orgId,
      actor: { type: e.actor.type, member_id: e.actor.memberId },
      attention_item: { id: e.attentionItemId, state: 'resolved', version: e.itemVersion, requester_member_id: e.requesterMemberId },
      execution: { id: e.executionId, state: 'waiting', state_version: e.executionStateVersion },
      issue: { id: r.id, identifier: `${r.project_key ?? r.issue_prefix}-${r.number}`, number: r.number, title: r.title, project_id: r.project_id },
      project: r.project_id ? { id: r.project_id, key: r.project_key, name: r.project_name } : null,
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
        issueId: e.issueId,
      })),
    );
    if (this.staged.size >= 1000) {
      const cutoff = Date.now() - 60_000;
      for (const [k, v] of this.staged) if (v.at < cutoff) this.staged.delete(k);
    }
    this.staged.set(e.id, { at: Date.now(), refs });
  }

  take(eventId: string): DeliveryRef[] {
    const s = this.staged.get(eventId);
    this.staged.delete(eventId);
    return s?.refs ?? [];
  }
}

/** After commit: enqueue the deliveries staged for the event (the worker's drain covers a missed enqueue). */
@EventsHandler(AttentionResolvedEvent)
export class EnqueueAttentionDeliveriesHandler implements IEventHandler<AttentionResolvedEvent> {
  constructor(
    private readonly staged: WebhookAttentionEvents,
    private readonly outbox: WebhookOutbox,
  ) {}

  async handle(e: AttentionResolvedEvent): Promise<void> {
    await this.outbox.enqueue(this.staged.take(e.id));
  }
}
