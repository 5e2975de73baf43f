import { Module } from '@nestjs/common';
import { AutomationDrain } from './automation-drain.service';
import { AutomationModule } from './automation.module';

/** Worker side of automation: the rules (jobs of the recurrence sweep's issues) and the drain of pending jobs (needs ScheduleModule.forRoot). */
@Module({
  imports: [AutomationModule],
  providers: [AutomationDrain],
  exports: [AutomationDrain],
})
export class AutomationWorkerModule {}
