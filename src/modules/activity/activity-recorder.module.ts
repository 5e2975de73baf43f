import { Module } from '@nestjs/common';
import { ActivityRecorder } from './activity-recorder.handler';
import { ActivityRepository } from './activity.repository';

/** Writes the timeline from staged IssueActivityEvents; used by the API and by the worker (sweeps stage entries too). */
@Module({ providers: [ActivityRepository, ActivityRecorder], exports: [ActivityRepository] })
export class ActivityRecorderModule {}
