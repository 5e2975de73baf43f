import { Module } from '@nestjs/common';
import { ActivityController } from './activity.controller';
import { ActivityRecorderModule } from './activity-recorder.module';
import { ActivityRedaction } from './activity-redaction.service';
import { ListIssueActivityHandler } from './queries/list-issue-activity/list-issue-activity.handler';
import { ListOrgActivityHandler } from './queries/list-org-activity/list-org-activity.handler';

/**
 * Task activity: records every IssueActivityEvent staged on DomainEvents (in the writer's
 * transaction) and serves the organization feed and each issue's timeline.
 */
@Module({
  imports: [ActivityRecorderModule],
  controllers: [ActivityController],
  providers: [ActivityRedaction, ListIssueActivityHandler, ListOrgActivityHandler],
})
export class ActivityModule {}
