import type { NotificationActionKind, NotificationEventType, NotificationSeverity } from './notification-kinds';
import type { NotificationAckEnvelope, NotificationResponse } from './notifications.response';

export interface NotificationRow {
  org_id: string;
  id: string;
  event_type: NotificationEventType;
  severity: NotificationSeverity;
  action_kind: NotificationActionKind;
  issue_id: string | null;
  project_id: string | null;
  comment_id: string | null;
  reply_to_comment_id: string | null;
  actor_member_id: string | null;
  actor_type: 'human' | 'agent' | 'automation';
  title: string;
  metadata: Record<string, unknown>;
  created_at: Date;
  acknowledged_at: Date | null;
}

export const ackEndpoint = (orgId: string, id: string) => `/api/orgs/${orgId}/notifications/${id}/ack`;

export function toNotificationResponse(r: NotificationRow): NotificationResponse {
  return {
    id: r.id,
    event_type: r.event_type,
    severity: r.severity,
    action_kind: r.action_kind,
    title: r.title,
    resource_type: r.issue_id ? 'issue' : null,
    resource_id: r.issue_id,
    issue_id: r.issue_id,
    project_id: r.project_id,
    comment_id: r.comment_id,
    reply_to_comment_id: r.reply_to_comment_id,
    actor_id: r.actor_member_id,
    actor_type: r.actor_type,
    metadata: r.metadata ?? {},
    ack_endpoint: ackEndpoint(r.org_id, r.id),
    target_path: r.issue_id ? `/api/orgs/${r.org_id}/issues/${r.issue_id}${r.comment_id ? `/comments/${r.comment_id}` : ''}` : null,
    created_at: new Date(r.created_at).toISOString(),
    acknowledged_at: r.acknowledged_at ? new Date(r.acknowledged_at).toISOString() : null,
  };
}

/** Exactly `{ notification: { id, acknowledged_at } }` (the contract forbids extra properties). */
export const toAckEnvelope = (a: { id: string; acknowledged_at: Date }): NotificationAckEnvelope => ({
  notification: { id: a.id, acknowledged_at: new Date(a.acknowledged_at).toISOString() },
});
