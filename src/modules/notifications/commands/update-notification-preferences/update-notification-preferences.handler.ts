import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../common/clock/clock';
import { Errors } from '../../../../common/errors/domain-error';
import {
  isChannel,
  isEventType,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_EVENT_TYPES,
  type NotificationChannel,
  type NotificationEventType,
} from '../../notification-kinds';
import { NotificationPreferences } from '../../notification-preferences.service';
import { NotificationsRepository } from '../../notifications.repository';
import type { NotificationPreferencesUpdateResponse } from '../../notifications.response';
import { UpdateNotificationPreferencesCommand } from './update-notification-preferences.command';
import type { UpdateNotificationPreferencesDto } from './update-notification-preferences.dto';
import { TxRunner } from '../../../../database/tx-runner';

interface Change {
  channel: NotificationChannel;
  eventType: NotificationEventType;
  enabled: boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function change(raw: Record<string, unknown>, at: string): Change {
  const channel = raw.channel ?? 'in_app';
  const eventType = raw.event_type;
  if (!isChannel(channel)) throw Errors.validation(`${at}channel must be one of: ${NOTIFICATION_CHANNELS.join(', ')}`);
  if (!isEventType(eventType)) throw Errors.validation(`${at}event_type must be one of: ${NOTIFICATION_EVENT_TYPES.join(', ')}`);
  if (typeof raw.enabled !== 'boolean') throw Errors.validation(`${at}enabled must be a boolean`);
  return { channel, eventType, enabled: raw.enabled };
}

/** Every accepted body form as a list of changes (400 for anything else). */
function changesOf(dto: UpdateNotificationPreferencesDto): Change[] {
  const out: Change[] = [];
  const rec = dto as Record<string, unknown>;
  if (rec.preferences !== undefined) {
    if (!Array.isArray(rec.preferences) || rec.preferences.length > 50)
      throw Errors.validation('preferences must be an array of at most 50 { channel, event_type, enabled }');
    rec.preferences.forEach((p, i) => {
      if (!isObject(p)) throw Errors.validation(`preferences[${i}] must be an object`);
      out.push(change(p, `preferences[${i}].`));
    });
  }
  if (rec.in_app !== undefined) {
    if (!isObject(rec.in_app)) throw Errors.validation('in_app must be an object of event type → boolean');
    for (const [eventType, enabled] of Object.entries(rec.in_app)) out.push(change({ channel: 'in_app', event_type: eventType, enabled }, 'in_app.'));
  }
  if (rec.event_type !== undefined || rec.enabled !== undefined || rec.channel !== undefined) out.push(change(rec, ''));
  if (!out.length) throw Errors.validation('Give { event_type, enabled } (optionally channel), preferences[], or in_app { event_type: enabled }');
  return out;
}

/**
 * POST /notifications/preferences: sets the caller's switches. Muting in-app mentions also
 * acknowledges the caller's unread mention notifications, in the same transaction.
 */
@CommandHandler(UpdateNotificationPreferencesCommand)
export class UpdateNotificationPreferencesHandler implements ICommandHandler<UpdateNotificationPreferencesCommand> {
  constructor(
    private readonly tx: TxRunner,
    private readonly prefs: NotificationPreferences,
    private readonly repo: NotificationsRepository,
    private readonly clock: Clock,
  ) {}

  async execute({ actor, dto }: UpdateNotificationPreferencesCommand): Promise<NotificationPreferencesUpdateResponse> {
    const changes = changesOf(dto);
    const now = this.clock.now();
    return this.tx.run(async (m) => {
      for (const c of changes) {
        await this.repo.setPreference(actor.orgId, actor.memberId, c.channel, c.eventType, c.enabled, now, m);
      }
      const preferences = await this.prefs.forMember(actor.orgId, actor.memberId, m);
      const mentionsMuted = !preferences.find((p) => p.channel === 'in_app' && p.event_type === 'mention.created')!.enabled;
      let acknowledged = 0;
      if (mentionsMuted && changes.some((c) => c.channel === 'in_app' && c.eventType === 'mention.created')) {
        acknowledged = await this.repo.acknowledgeMentions(actor.orgId, actor.memberId, now, m);
      }
      return { preferences, acknowledged_mentions: acknowledged };
    });
  }
}
