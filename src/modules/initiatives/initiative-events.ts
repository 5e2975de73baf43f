import { Injectable } from '@nestjs/common';
import { EventBus } from '@nestjs/cqrs';
import type { Actor } from '../../common/auth/principal';
import { IssueActivityEvent, snapshotOf } from '../activity/events/issue-activity.event';
import { type InitiativeLinkChange, InitiativeLinksChangedEvent } from './events/initiative-links-changed.event';

/** After-commit publishing of the initiative module: issue timeline rows and the links-changed event. */
@Injectable()
export class InitiativeEventsPublisher {
  constructor(private readonly events: EventBus) {}

  /** `initiative.linked`/`initiative.unlinked`, `initiative_target.linked`/`initiative_target.unlinked` on the issue's timeline. */
  timeline(actor: Actor, issue: { id: string; projectId: string | null }, action: string, metadata: Record<string, unknown>): void {
    this.events.publish(new IssueActivityEvent(actor.orgId, issue.id, issue.projectId, actor.memberId, snapshotOf(actor), action, metadata));
  }

  linksChanged(orgId: string, initiativeId: string, goalIds: Array<string | null>, change: InitiativeLinkChange): void {
    const goals = [...new Set(goalIds.filter((g): g is string => !!g))];
    this.events.publish(new InitiativeLinksChangedEvent(orgId, initiativeId, goals, change));
  }
}
