import { Module } from '@nestjs/common';
import { IssuesRepository } from '../issues/issues.repository';
import { ProjectsModule } from '../projects/projects.module';
import { RecurrenceRepository } from './recurrence.repository';
import { RecurrenceService } from './recurrence.service';

/**
 * Recurring issues: the pure rules (recurrence.rules.ts, used by the issues module on create and
 * update) and RecurrenceService (next occurrence on completion). The scheduled sweep lives in the
 * worker (RecurrenceWorkerModule).
 */
@Module({
  imports: [ProjectsModule],
  // IssuesRepository is provided here as well: the issues module imports this one, so this one
  // cannot import it back (the repository is stateless).
  providers: [RecurrenceService, RecurrenceRepository, IssuesRepository],
  exports: [RecurrenceService, RecurrenceRepository, IssuesRepository],
})
export class RecurrenceModule {}
