import { Injectable, type OnModuleInit } from '@nestjs/common';
import { EventsHandler, type IEventHandler } from '@nestjs/cqrs';
import type { EntityManager } from 'typeorm';
import { type DomainEvent, DomainEvents, IssueChangedEvent } from '../../common/events/domain-events';
import { type IssuePayloadRow, WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { type DeliveryRef, type NewDelivery, WebhookOutbox } from './webhook-outbox.service';
import { BROADCAST_SCHEMA_VERSION, type SubscribableEvent } from './webhooks.constants';

/**
 * Subscription broadcasts of issue changes (schema version 2).
 * - `created` → `issue.created`; `updated`, `archived` and `unarchived` → `issue.updated` (the
 *   payload's `issue.archived` and `changes.fields` say which); `deleted` is not delivered (no
 *   subscribable name for it in the contract).
 * - The payload is built in the writer's transaction from the committed-to-be state: current
 *   tenant-scoped issue and project fields, changed field NAMES only. Never the description,
 *   comment bodies or before/after values.
 */
export function webhookEventOf(e: IssueChangedEvent): SubscribableEvent | null {
  if (e.kind === 'created') return 'issue.created';
  if (e.kind === 'updated' || e.kind === 'archived' || e.kind === 'unarchived') return 'issue.updated';
  return null;
}

/** The payload of an issue event from the issue's row as the writer's transaction sees it. */
export function issuePayload(r: IssuePayloadRow, event: SubscribableEvent, e: IssueChangedEvent): string {
  const body = {
    event,
    schema_version: BROADCAST_SCHEMA_VERSION,
    occurred_at: e.at.toISOString(),
    organization_id: e.orgId,
    actor: { type: e.actor.type, member_id: e.actor.memberId },
    issue: {
      id: r.id,
      identifier: `${r.project_key ?? r.issue_prefix}-${r.number}`,
      number: r.number,
      title: r.title,
      status: r.status,
      priority: r.priority,
      project_id: r.project_id,
      assignee_ids: e.after.assigneeIds,
      milestone_id: r.milestone_id,
      parent_id: r.parent_id,
      start_date: r.start_date,
      due_date: r.due_date,
      archived: r.archived_at !== null,
      archived_at: r.archived_at?.toISOString() ?? null,
      completed_at: r.completed_at?.toISOString() ?? null,
      created_at: r.created_at.toISOString(),
      updated_at: r.updated_at.toISOString(),
    },
    project: r.project_id ? { id: r.project_id, key: r.project_key, name: r.project_name } : null,
    changes: { kind: e.kind, fields: e.kind === 'archived' || e.kind === 'unarchived' ? ['archived'] : [...e.changedFields] },
  };
  return JSON.stringify(body);
}

/**
 * In the writer's transaction: one delivery row per event and enabled subscribed destination
 * (purpose `webhook` or `both`). The events of one transaction take one destination look-up, one
 * payload read and one INSERT, whatever their number.
 */
@Injectable()
export class WebhookIssueEvents implements OnModuleInit {
  /** Deliveries staged per event id until the event is published after commit (or forgotten). */
  private readonly staged = new Map<string, { at: number; refs: DeliveryRef[] }>();

  constructor(
    private readonly events: DomainEvents,
    private readonly outbox: WebhookOutbox,
    private readonly deliveries: WebhookDeliveriesRepository,
  ) {}

  onModuleInit(): void {
    this.events.register({ onStaged: (m, e) => this.onStagedAll(m, [e]), onStagedAll: (m, events) => this.onStagedAll(m, events) });
  }

  async onStagedAll(m: EntityManager, events: DomainEvent[]): Promise<void> {
    const named = events
      .filter((e): e is IssueChangedEvent => e instanceof IssueChangedEvent)
      .map((e) => ({ e, event: webhookEventOf(e) }))
      .filter((x): x is { e: IssueChangedEvent; event: SubscribableEvent } => x.event !== null);
    for (const orgId of new Set(named.map((x) => x.e.orgId))) {
      if (this.events.presence(m, orgId)?.webhooks === 0) continue; // the writer read that there are none
      const mine = named.filter((x) => x.e.orgId === orgId);
      // purpose `automation` destinations are for automation `send_webhook` actions only
      const dests = await this.outbox.destinations(m, orgId, { anyEvent: [...new Set(mine.map((x) => x.event))], purposes: ['webhook', 'both'] });
      if (!dests.length) continue;
      const rows = new Map((await this.deliveries.issuePayloadRows(orgId, [...new Set(mine.map((x) => x.e.issueId))], m)).map((r) => [r.id, r]));
      const deliveries: Array<NewDelivery & { eventId: string }> = [];
      for (const { e, event } of mine) {
        const row = rows.get(e.issueId);
        if (!row) continue;
        const body = issuePayload(row, event, e);
        for (const d of dests.filter((x) => x.events.includes(event))) {
          deliveries.push({
            eventId: e.id,
            orgId,
            webhookId: d.id,
            versionId: d.version_id,
            signingVersions: d.signing_versions,
            event,
            schemaVersion: BROADCAST_SCHEMA_VERSION,
            body,
            issueId: e.issueId,
          });
        }
      }
      const refs = await this.outbox.insert(m, deliveries);
      this.prune();
      for (const [i, d] of deliveries.entries()) {
        const s = this.staged.get(d.eventId) ?? { at: Date.now(), refs: [] };
        s.refs.push(refs[i]);
        this.staged.set(d.eventId, s);
      }
    }
  }

  /** The refs staged for an event that committed (taken once). */
  take(eventId: string): DeliveryRef[] {
    const s = this.staged.get(eventId);
    this.staged.delete(eventId);
    return s?.refs ?? [];
  }

  /** Rolled-back events are never published: forget them after a minute (their rows do not exist). */
  private prune(): void {
    if (this.staged.size < 1000) return;
    const cutoff = Date.now() - 60_000;
    for (const [k, v] of this.staged) if (v.at < cutoff) this.staged.delete(k);
  }
}

/** After commit: enqueue the deliveries staged for the event. */
@EventsHandler(IssueChangedEvent)
export class EnqueueIssueDeliveriesHandler implements IEventHandler<IssueChangedEvent> {
  constructor(
    private readonly staged: WebhookIssueEvents,
    private readonly outbox: WebhookOutbox,
  ) {}

  async handle(e: IssueChangedEvent): Promise<void> {
    await this.outbox.enqueue(this.staged.take(e.id));
  }
}
