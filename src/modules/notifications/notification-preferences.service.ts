import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { NotificationsRepository } from './notifications.repository';
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
  constructor(private readonly repo: NotificationsRepository) {}

  /** Of `memberIds`, those who switched `eventType` off on `channel`. */
  async disabledAmong(
    orgId: string,
    memberIds: string[],
    eventType: NotificationEventType,
    channel: NotificationChannel = 'in_app',
    m?: EntityManager,
  ): Promise<Set<string>> {
    if (!memberIds.length) return new Set();
    return new Set(await this.repo.disabledAmong(orgId, memberIds, eventType, channel, m));
  }

  /** Every channel × event type of one member, with defaults filled in, in a stable order. */
  async forMember(orgId: string, memberId: string, m?: EntityManager): Promise<PreferenceRow[]> {
    const rows = await this.repo.preferencesOf(orgId, memberId, m);
    const stored = new Map(rows.map((r) => [`${r.channel} ${r.event_type}`, r.enabled]));
    return NOTIFICATION_CHANNELS.flatMap((channel) =>
      NOTIFICATION_EVENT_TYPES.map((event_type) => ({ channel, event_type, enabled: stored.get(`${channel} ${event_type}`) ?? true })),
    );
  }
}
