import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { RecurrenceModule } from './recurrence.module';
import { RECURRENCE_QUEUE } from './recurrence.constants';
import { RecurrenceScheduler } from './recurrence.scheduler';
import { RecurrenceSweepProcessor } from './recurrence-sweep.processor';

/** Worker side of recurring issues: the every-minute scheduled-recurrence sweep (Bull queue `recurrence`). */
@Module({
  imports: [BullModule.registerQueue({ name: RECURRENCE_QUEUE }), RecurrenceModule],
  providers: [RecurrenceScheduler, RecurrenceSweepProcessor],
})
export class RecurrenceWorkerModule {}
