import { Injectable } from '@nestjs/common';
import { EventBus } from '@nestjs/cqrs';
import type { EntityManager } from 'typeorm';
import type { Actor } from '../../common/auth/principal';
import { DomainEvents, IssueActivityEvent, snapshotOf } from '../../common/events/domain-events';
import { type InitiativeLinkChange, InitiativeLinksChangedEvent } from './events/initiative-links-changed.event';

/** Events of the initiative module: issue timeline rows (staged in the transaction) and the links-changed event (after commit). */
@Injectable()
export class InitiativeEventsPublisher {
  constructor(
    private readonly events: EventBus,
    private readonly domain: DomainEvents,
  ) {}

  /** `initiative.linked`/`initiative.unlinked`, `initiative_target.linked`/`initiative_target.unlinked` on the issue's timeline. */
  timeline(m: EntityManager, actor: Actor, issue: { id: string; projectId: string | null }, action: string, metadata: Record<string, unknown>): Promise<void> {
    return this.domain.stage(m, new IssueActivityEvent(actor.orgId, issue.id, issue.projectId, actor.memberId, snapshotOf(actor), action, metadata));
  }

  linksChanged(orgId: string, initiativeId: string, goalIds: Array<string | null>, change: InitiativeLinkChange): void {
    const goals = [...new Set(goalIds.filter((g): g is string => !!g))];
    this.events.publish(new InitiativeLinksChangedEvent(orgId, initiativeId, goals, change));
  }
}
