import { Query } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';
import type { NotificationPreferencesResponse } from '../../notifications.response';

export class GetNotificationPreferencesQuery extends Query<NotificationPreferencesResponse> {
  constructor(readonly actor: Actor) {
    super();
  }
}
