import { Module } from '@nestjs/common';
import { ActivityRecorder, PendingActivity } from './activity-recorder.handler';

/** Writes the timeline from IssueActivityEvents; used by the API and by the worker (sweeps publish too). */
@Module({ providers: [PendingActivity, ActivityRecorder], exports: [PendingActivity] })
export class ActivityRecorderModule {}
