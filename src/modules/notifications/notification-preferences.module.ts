import { Module } from '@nestjs/common';
import { NotificationPreferences } from './notification-preferences.service';

/** The preference lookups, shared by the notifications module and the comment writer. */
@Module({
  providers: [NotificationPreferences],
  exports: [NotificationPreferences],
})
export class NotificationPreferencesModule {}
