import { ApiProperty } from '@nestjs/swagger';

export class AnalyticsRangeInfo {
  /** Start of the range (inclusive), RFC 3339 UTC */
  from: string;
  /** End of the range (exclusive), RFC 3339 UTC; a date `to` includes its whole day */
  to: string;
  /** Days are calendar days in UTC */
  @ApiProperty({ enum: ['UTC'] })
  time_zone: string;
}
export class AnalyticsDay {
  /** YYYY-MM-DD (UTC) */
  date: string;
  /** Issues created that day */
  created: number;
  /** Issues completed that day (moved to `done`, still done) */
  completed: number;
  /** Issues cancelled that day (still cancelled) */
  cancelled: number;
  /** Issues open (created, neither done nor cancelled) at the end of the day */
  open: number;
}
export class AnalyticsDuration {
  /** Hours; null without samples */
  @ApiProperty({ type: 'number', nullable: true })
  p50: number | null;
  @ApiProperty({ type: 'number', nullable: true })
  p90: number | null;
  /** Issues measured */
  count: number;
}
export class AnalyticsTotals {
  created: number;
  completed: number;
  cancelled: number;
  open_at_start: number;
  open_at_end: number;
}
export class AnalyticsThroughput {
  /** Completions whose primary assignee is a person */
  human: number;
  /** Completions whose primary assignee is an agent */
  agent: number;
  /** Completions without an assignee */
  unassigned: number;
}
export class AnalyticsStatusCount {
  status: string;
  count: number;
}
export class AnalyticsPriorityCount {
  priority: number;
  count: number;
}
export class AnalyticsWorkload {
  @ApiProperty({ type: 'string', format: 'uuid', nullable: true })
  assignee_id: string | null;
  @ApiProperty({ type: 'string', nullable: true })
  display_name: string | null;
  @ApiProperty({ enum: ['human', 'agent'], nullable: true })
  type: string | null;
  count: number;
}
export class AnalyticsDailyCount {
  date: string;
  created: number;
  completed: number;
}
export class AnalyticsResponse {
  range: AnalyticsRangeInfo;
  @ApiProperty({ type: 'string', format: 'uuid', nullable: true })
  project_id: string | null;
  @ApiProperty({ type: 'string', format: 'uuid', nullable: true })
  team_id: string | null;
  totals: AnalyticsTotals;
  @ApiProperty({ type: [AnalyticsDay] })
  days: AnalyticsDay[];
  /** First `in_progress` to done, over the issues completed in the range */
  cycle_time_hours: AnalyticsDuration;
  /** Created to done, over the issues completed in the range */
  lead_time_hours: AnalyticsDuration;
  /** Completions in the range by who did the work */
  throughput: AnalyticsThroughput;
  @ApiProperty({ type: [AnalyticsWorkload], description: 'Completions in the range per primary assignee, most first' })
  throughput_by_assignee: AnalyticsWorkload[];
  @ApiProperty({ type: [AnalyticsStatusCount], description: 'Current status of the non-archived issues in scope created before the end of the range' })
  statusDistribution: AnalyticsStatusCount[];
  @ApiProperty({ type: [AnalyticsPriorityCount] })
  priorityBreakdown: AnalyticsPriorityCount[];
  @ApiProperty({ type: [AnalyticsWorkload], description: 'Open non-archived issues per primary assignee, most first' })
  assigneeWorkload: AnalyticsWorkload[];
  @ApiProperty({ type: [AnalyticsDailyCount], description: 'Compatibility view of `days`' })
  dailyCounts: AnalyticsDailyCount[];
}
