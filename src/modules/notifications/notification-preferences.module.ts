import { Module } from '@nestjs/common';
import { NotificationPreferences } from './notification-preferences.service';
import { NotificationsRepository } from './notifications.repository';

/** The preference lookups, shared by the notifications module and the comment writer. */
@Module({
  providers: [NotificationsRepository, NotificationPreferences],
  exports: [NotificationsRepository, NotificationPreferences],
})
export class NotificationPreferencesModule {}
