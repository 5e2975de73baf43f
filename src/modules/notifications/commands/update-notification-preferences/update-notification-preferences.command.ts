import { Command } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';
import type { NotificationPreferencesUpdateResponse } from '../../notifications.response';
import type { UpdateNotificationPreferencesDto } from './update-notification-preferences.dto';

export class UpdateNotificationPreferencesCommand extends Command<NotificationPreferencesUpdateResponse> {
  constructor(
    readonly actor: Actor,
    readonly dto: UpdateNotificationPreferencesDto,
  ) {
    super();
  }
}
