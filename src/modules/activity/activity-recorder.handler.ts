import { randomUUID } from 'node:crypto';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type DomainEvent, DomainEvents, IssueActivityEvent } from '../../common/events/domain-events';
import { ActivityRepository } from './activity.repository';

/**
 * Writes every staged IssueActivityEvent to `activity_events` in the transaction of the change it
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
    this.events.register({ onStaged: (m, e) => this.onStaged(m, e) });
  }

  async onStaged(m: EntityManager, e: DomainEvent): Promise<void> {
    if (!(e instanceof IssueActivityEvent)) return;
    // Strictly increasing timestamps keep the entries of one request in the order they were staged.
    const ms = Math.max(e.at.getTime(), this.lastAt + 1);
    this.lastAt = ms;
    const automation = e.actor?.type === 'automation' || !e.actorMemberId;
    let actor: Record<string, unknown>;
    if (automation) {
      actor = { display_name: e.actor?.display_name || 'Automation', type: 'automation' };
    } else {
      let avatar = e.actor?.avatar_url ?? null;
      let name = e.actor?.display_name;
      let type = e.actor?.type;
      if (avatar === null || !name || !type) {
        const row = await this.activity.actorMember(e.orgId, e.actorMemberId!, m);
        avatar ??= row?.avatar_url ?? null;
        name ||= row?.display_name ?? 'Unknown';
        type ||= (row?.type as 'human' | 'agent' | undefined) ?? 'human';
      }
      actor = { id: e.actorMemberId, display_name: name, type, avatar_url: avatar };
    }
    await this.activity.insert(
      {
        orgId: e.orgId,
        id: randomUUID(),
        issueId: e.issueId,
        projectId: e.projectId,
        actorMemberId: automation ? null : e.actorMemberId,
        action: e.action,
        metadata: { ...(e.metadata ?? {}), actor },
        createdAt: new Date(ms),
      },
      m,
    );
  }
}
