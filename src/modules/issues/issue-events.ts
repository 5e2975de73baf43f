import type { EntityManager } from 'typeorm';
import type { Actor } from '../../common/auth/principal';
import { type DomainEvents, IssueActivityEvent, snapshotOf } from '../../common/events/domain-events';

/** Stages one issue timeline entry by the acting member (call INSIDE the transaction of the change). */
export function stageIssueActivity(
  events: DomainEvents,
  m: EntityManager,
  actor: Actor,
  issue: { id: string; projectId: string | null },
  action: string,
  metadata: Record<string, unknown> = {},
): Promise<void> {
  return events.stage(m, new IssueActivityEvent(actor.orgId, issue.id, issue.projectId, actor.memberId, snapshotOf(actor), action, metadata));
}
