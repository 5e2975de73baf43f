import type { EventBus } from '@nestjs/cqrs';
import type { Actor } from '../../common/auth/principal';
import { IssueActivityEvent, snapshotOf } from '../activity/events/issue-activity.event';

/** Publishes one issue activity entry (call AFTER the transaction commits). */
export function publishIssueActivity(
  bus: EventBus,
  actor: Actor,
  issue: { id: string; projectId: string | null },
  action: string,
  metadata: Record<string, unknown> = {},
): void {
  bus.publish(new IssueActivityEvent(actor.orgId, issue.id, issue.projectId, actor.memberId, snapshotOf(actor), action, metadata));
}
