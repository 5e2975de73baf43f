import { Module } from '@nestjs/common';
import { ActivityController } from './activity.controller';
import { ActivityRecorder, PendingActivity } from './activity-recorder.handler';
import { ListIssueActivityHandler } from './queries/list-issue-activity/list-issue-activity.handler';
import { ListOrgActivityHandler } from './queries/list-org-activity/list-org-activity.handler';

/**
 * Task activity: records every IssueActivityEvent published on the EventBus (after the
 * publisher's commit) and serves the organization feed and each issue's timeline.
 */
@Module({
  controllers: [ActivityController],
  providers: [PendingActivity, ActivityRecorder, ListIssueActivityHandler, ListOrgActivityHandler],
})
export class ActivityModule {}
