import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NotificationPreferences } from '../../notification-preferences.service';
import type { NotificationPreferencesResponse } from '../../notifications.response';
import { GetNotificationPreferencesQuery } from './get-notification-preferences.query';

/** GET /notifications/preferences: the caller's switches, every channel and event type (default on). */
@QueryHandler(GetNotificationPreferencesQuery)
export class GetNotificationPreferencesHandler implements IQueryHandler<GetNotificationPreferencesQuery> {
  constructor(private readonly prefs: NotificationPreferences) {}

  async execute({ actor }: GetNotificationPreferencesQuery): Promise<NotificationPreferencesResponse> {
    return { preferences: await this.prefs.forMember(actor.orgId, actor.memberId) };
  }
}
