import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { NOTIFICATION_CHANNELS, NOTIFICATION_EVENT_TYPES, type NotificationChannel, type NotificationEventType } from './notification-kinds';

export interface PreferenceRow {
  channel: NotificationChannel;
  event_type: NotificationEventType;
  enabled: boolean;
}

/**
 * Per-member, per-channel switches for each notification event type. Everything is on by default:
 * a row exists only once a member changed a switch. Shared with the comment writer (mentions of a
 * member who muted in-app mentions are skipped with `mentions_muted`).
 */
@Injectable()
export class NotificationPreferences {
  constructor(private readonly db: DataSource) {}

  /** Of `memberIds`, those who switched `eventType` off on `channel`. */
  async disabledAmong(
    orgId: string,
    memberIds: string[],
    eventType: NotificationEventType,
    channel: NotificationChannel = 'in_app',
    m: EntityManager = this.db.manager,
  ): Promise<Set<string>> {
    if (!memberIds.length) return new Set();
    const rows: Array<{ member_id: string }> = await m.query(
      `SELECT member_id FROM notification_preferences
        WHERE org_id = $1 AND member_id = ANY($2::uuid[]) AND channel = $3 AND event_type = $4 AND NOT enabled`,
      [orgId, memberIds, channel, eventType],
    );
    return new Set(rows.map((r) => r.member_id));
  }

  /** Every channel × event type of one member, with defaults filled in, in a stable order. */
  async forMember(orgId: string, memberId: string, m: EntityManager = this.db.manager): Promise<PreferenceRow[]> {
    const rows: PreferenceRow[] = await m.query(
      'SELECT channel, event_type, enabled FROM notification_preferences WHERE org_id = $1 AND member_id = $2',
      [orgId, memberId],
    );
    const stored = new Map(rows.map((r) => [`${r.channel} ${r.event_type}`, r.enabled]));
    return NOTIFICATION_CHANNELS.flatMap((channel) =>
      NOTIFICATION_EVENT_TYPES.map((event_type) => ({ channel, event_type, enabled: stored.get(`${channel} ${event_type}`) ?? true })),
    );
  }
}
