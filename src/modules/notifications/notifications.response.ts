import type { NotificationActionKind, NotificationChannel, NotificationEventType, NotificationSeverity } from './notification-kinds';

export class NotificationResponse {
  id: string;
  /** `mention.created`, `issue.assigned`, `comment.added` or `issue.status_changed` */
  event_type: NotificationEventType;
  /** `info`, `warning` or `critical` */
  severity: NotificationSeverity;
  /** `resume_agent_thread`, `respond_to_comment`, `start_work` or `review_issue` */
  action_kind: NotificationActionKind;
  /** Title of the issue when the notification was created */
  title: string;
  /** `issue` (null for notifications about no issue) */
  resource_type: 'issue' | null;
  /** The issue id */
  resource_id: string | null;
  issue_id: string | null;
  /** Project of the issue when the notification was created */
  project_id: string | null;
  /** The comment that caused it (mentions, comments, replies) */
  comment_id: string | null;
  /** The comment that comment replies to */
  reply_to_comment_id: string | null;
  /** Member who acted; null for automation */
  actor_id: string | null;
  /** `human`, `agent` or `automation` */
  actor_type: 'human' | 'agent' | 'automation';
  /**
   * Safe details: `status_from`/`status_to` for status changes; `routing` (`harness`, `thread_id`,
   * `session_id`, `host_id`) of the parent agent comment for `resume_agent_thread`. Never comment bodies.
   */
  metadata: Record<string, unknown>;
  /** POST here to acknowledge */
  ack_endpoint: string;
  /** REST path of the issue (or comment) to read */
  target_path: string | null;
  created_at: string;
  /** Always null in the unread list */
  acknowledged_at: string | null;
}

export class NotificationListResponse {
  /** Unread notifications the caller can still see, newest first */
  notifications: NotificationResponse[];
  total: number;
  limit: number;
  offset: number;
}

export class NotificationAck {
  id: string;
  acknowledged_at: string;
}

export class NotificationAckEnvelope {
  notification: NotificationAck;
}

export class NotificationPreferenceResponse {
  /** `in_app` */
  channel: NotificationChannel;
  event_type: NotificationEventType;
  /** On unless switched off */
  enabled: boolean;
}

export class NotificationPreferencesResponse {
  /** Every channel and event type, defaults filled in */
  preferences: NotificationPreferenceResponse[];
}

export class NotificationPreferencesUpdateResponse extends NotificationPreferencesResponse {
  /** Unread mention notifications acknowledged because in-app mentions were muted by this request */
  acknowledged_mentions: number;
}

export class UserNotificationResponse extends NotificationResponse {
  /** The organization the notification belongs to */
  organization_id: string;
  /** Whether it was read (acknowledged) */
  read: boolean;
}

export class UserNotificationList {
  /** The latest 50 over every organization of the user: unread first, then newest first */
  notifications: UserNotificationResponse[];
  /** Unread among them */
  unread: number;
}

export class ReadAllNotificationsResponse {
  success: boolean;
  /** Notifications marked read */
  marked: number;
}
