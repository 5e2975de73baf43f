import { Allow } from 'class-validator';
import { Alias, AliasesIn } from '../../../../common/http/aliases';

export class NotificationPreferenceChangeDto {
  /** `in_app` (default) */
  @Allow() channel?: string;
  /** `mention.created`, `issue.assigned`, `comment.added` or `issue.status_changed` */
  @Alias('eventType') event_type: string;
  @Allow() enabled: boolean;
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
  @Alias('eventType')
  event_type?: string;

  /** On or off */
  @Allow()
  enabled?: boolean;

  /** Several changes at once */
  @AliasesIn(() => NotificationPreferenceChangeDto)
  preferences?: NotificationPreferenceChangeDto[];

  /** Map form for the in-app channel: event type → enabled */
  @Allow()
  in_app?: Record<string, boolean>;
}
