import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { IssuesRepository } from '../issues/issues.repository';
import { RecurrenceRepository } from '../issues/recurrence.repository';
import { RecurrenceService } from '../issues/recurrence.service';
import { BoardRepository } from '../projects/board.repository';
import { RECURRENCE_QUEUE } from './recurrence.constants';
import { RecurrenceScheduler } from './recurrence.scheduler';
import { RecurrenceSweepProcessor } from './recurrence-sweep.processor';

/** Worker side of recurring issues: the every-minute scheduled-recurrence sweep (Bull queue `recurrence`). */
@Module({
  imports: [BullModule.registerQueue({ name: RECURRENCE_QUEUE })],
  // The worker does not load IssuesModule (controllers, handlers): it provides the stateless
  // services the sweep needs itself.
  providers: [RecurrenceScheduler, RecurrenceSweepProcessor, RecurrenceService, RecurrenceRepository, IssuesRepository, BoardRepository],
})
export class RecurrenceWorkerModule {}
