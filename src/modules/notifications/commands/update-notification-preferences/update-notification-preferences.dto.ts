import { Allow } from 'class-validator';

export class NotificationPreferenceChangeDto {
  /** `in_app` (default) */
  channel?: string;
  /** `mention.created`, `issue.assigned`, `comment.added` or `issue.status_changed` (alias `eventType`) */
  event_type: string;
  enabled: boolean;
}

/**
 * One change (`{ channel?, event_type, enabled }`), several (`{ preferences: [...] }`), or a map per
 * channel (`{ in_app: { "mention.created": false } }`). Values are checked by the handler so that
 * errors name the field the caller sent.
 */
export class UpdateNotificationPreferencesDto {
  /** `in_app` (default) */
  @Allow()
  channel?: string;

  /** Event type to switch */
  @Allow()
  event_type?: string;

  /** Alias of event_type */
  @Allow()
  eventType?: string;

  /** On or off */
  @Allow()
  enabled?: boolean;

  /** Several changes at once */
  @Allow()
  preferences?: NotificationPreferenceChangeDto[];

  /** Map form for the in-app channel: event type → enabled */
  @Allow()
  in_app?: Record<string, boolean>;
}
