import { Module } from '@nestjs/common';
import { RecurrenceService } from './recurrence.service';

/**
 * Recurring issues: the pure rules (recurrence.rules.ts, used by the issues module on create and
 * update) and RecurrenceService (next occurrence on completion). The scheduled sweep lives in the
 * worker (RecurrenceWorkerModule).
 */
@Module({
  providers: [RecurrenceService],
  exports: [RecurrenceService],
})
export class RecurrenceModule {}
