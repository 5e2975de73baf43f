import { Module } from '@nestjs/common';
import { NotificationPreferencesModule } from './notification-preferences.module';
import { NotificationsFanout } from './notifications-fanout.handler';

/** The event handler that creates notifications; loaded by the API and by the worker (recurrence publishes events there). */
@Module({
  imports: [NotificationPreferencesModule],
  providers: [NotificationsFanout],
})
export class NotificationsFanoutModule {}
