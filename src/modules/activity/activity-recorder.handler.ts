import { randomUUID } from 'node:crypto';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type DomainEvent, DomainEvents, IssueActivityEvent, ProjectActivityEvent } from '../../common/events/domain-events';
import { ActivityRepository, type NewActivityRow } from './activity.repository';

/**
 * Writes every staged IssueActivityEvent (and project-level ProjectActivityEvent) to `activity_events` in the transaction of the change it
 * describes (a DomainEvents subscriber): the entry exists exactly when the change committed, and
 * readers see it as soon as the writer's response is sent. `metadata.actor` keeps the immutable
 * event-time snapshot of the actor; an automation actor has no member (`actor_member_id` null,
 * `metadata.actor` = { display_name: 'Automation', type: 'automation' }).
 */
@Injectable()
export class ActivityRecorder implements OnModuleInit {
  private lastAt = 0;

  constructor(
    private readonly events: DomainEvents,
    private readonly activity: ActivityRepository,
  ) {}

  onModuleInit(): void {
    this.events.register({ onStaged: (m, e) => this.onStagedAll(m, [e]), onStagedAll: (m, events) => this.onStagedAll(m, events) });
  }

  /** The timeline entries among `events`, in one INSERT (members are looked up only when the event's snapshot lacks them). */
  async onStagedAll(m: EntityManager, events: DomainEvent[]): Promise<void> {
    const entries = events.filter((e): e is IssueActivityEvent | ProjectActivityEvent => e instanceof IssueActivityEvent || e instanceof ProjectActivityEvent);
    if (!entries.length) return;
    const missing = entries.filter((e) => !isAutomation(e) && (e.actor?.avatar_url === undefined || !e.actor.display_name || !e.actor.type));
    const members = missing.length ? await this.activity.actorMembers(entries[0].orgId, [...new Set(missing.map((e) => e.actorMemberId!))], m) : new Map();
    const rows: NewActivityRow[] = entries.map((e) => {
      // Strictly increasing timestamps keep the entries of one request in the order they were staged.
      const ms = Math.max(e.at.getTime(), this.lastAt + 1);
      this.lastAt = ms;
      const automation = isAutomation(e);
      let actor: Record<string, unknown>;
      if (automation) {
        actor = { display_name: e.actor?.display_name || 'Automation', type: 'automation' };
      } else {
        const row = members.get(e.actorMemberId!);
        actor = {
          id: e.actorMemberId,
          display_name: e.actor?.display_name || row?.display_name || 'Unknown',
          type: e.actor?.type || row?.type || 'human',
          avatar_url: e.actor?.avatar_url ?? row?.avatar_url ?? null,
        };
      }
      return {
        orgId: e.orgId,
        id: randomUUID(),
        issueId: e instanceof IssueActivityEvent ? e.issueId : null,
        projectId: e.projectId,
        actorMemberId: automation ? null : e.actorMemberId,
        action: e.action,
        metadata: { ...(e.metadata ?? {}), actor },
        createdAt: new Date(ms),
      };
    });
    await this.activity.insertMany(rows, m);
  }
}

const isAutomation = (e: IssueActivityEvent | ProjectActivityEvent): boolean => e.actor?.type === 'automation' || !e.actorMemberId;
