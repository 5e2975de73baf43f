/**
 * The closed sets of the notification record (the database CHECK constraints list the same values).
 *
 * Event types (what happened to the recipient):
 * - `mention.created`: someone mentioned you in a comment;
 * - `issue.assigned`: you were added as an assignee;
 * - `comment.added`: a comment replying directly to yours, or on an issue you are assigned to;
 * - `issue.status_changed`: the status of an issue you created changed;
 * - `attention.resolved`: a human answered your attention request (agents; action `resume_agent_thread`);
 * - `verification.completed`: a workflow run completed on the exact head of a pull request linked to
 *   an issue you are assigned to (GitHub connections in `attention` verification mode; agents
 *   `resume_agent_thread`, humans `review_issue`); `metadata.verification` holds its bounded identifiers.
 *
 * Action kinds (what the recipient is expected to do):
 * - `resume_agent_thread`: an agent is addressed in conversation (mentioned, or replied to); when
 *   the parent comment is the agent's own and carries routing metadata, that routing is attached;
 * - `respond_to_comment`: a human is addressed in conversation (mentioned, or replied to);
 * - `start_work`: you were assigned;
 * - `review_issue`: something changed on an issue you follow (assignee comment, status change).
 */
export const NOTIFICATION_EVENT_TYPES = [
  'mention.created',
  'issue.assigned',
  'comment.added',
  'issue.status_changed',
  'attention.resolved',
  'verification.completed',
] as const;
export type NotificationEventType = (typeof NOTIFICATION_EVENT_TYPES)[number];

export const NOTIFICATION_SEVERITIES = ['info', 'warning', 'critical'] as const;
export type NotificationSeverity = (typeof NOTIFICATION_SEVERITIES)[number];

export const NOTIFICATION_ACTION_KINDS = ['resume_agent_thread', 'respond_to_comment', 'start_work', 'review_issue'] as const;
export type NotificationActionKind = (typeof NOTIFICATION_ACTION_KINDS)[number];

/** Delivery channels a member can switch per event type; only the in-app inbox exists here. */
export const NOTIFICATION_CHANNELS = ['in_app'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

export const isEventType = (v: unknown): v is NotificationEventType => (NOTIFICATION_EVENT_TYPES as readonly unknown[]).includes(v);
export const isChannel = (v: unknown): v is NotificationChannel => (NOTIFICATION_CHANNELS as readonly unknown[]).includes(v);
