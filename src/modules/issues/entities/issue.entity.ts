import { Column, Entity, PrimaryColumn } from 'typeorm';

export type RecurrenceType = 'daily' | 'weekly' | 'biweekly' | 'monthly' | 'custom';
export type RecurrenceMode = 'completion' | 'schedule';
export type Weekday = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';
export const WEEKDAYS: readonly Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
export const BUILTIN_STATUSES = ['backlog', 'todo', 'in_progress', 'done', 'cancelled'] as const;
export const TERMINAL_STATUSES = ['done', 'cancelled'] as const;

@Entity('issues')
export class IssueEntity {
  @PrimaryColumn('uuid') orgId: string;
  @PrimaryColumn('uuid') id: string;
  @Column('uuid', { nullable: true }) projectId: string | null;
  @Column('integer') number: number;
  @Column('text') title: string;
  @Column('text', { nullable: true }) description: string | null;
  @Column('text') status: string;
  @Column('smallint', { default: 2 }) priority: number;
  /** Primary assignee (the first of the assignees), kept for fast filtering. */
  @Column('uuid', { nullable: true }) assigneeId: string | null;
  @Column('uuid', { nullable: true }) teamId: string | null;
  @Column('uuid', { nullable: true }) milestoneId: string | null;
  @Column('uuid', { nullable: true }) parentId: string | null;
  @Column('date', { nullable: true }) startDate: string | null;
  @Column('date', { nullable: true }) dueDate: string | null;
  @Column('timestamptz', { nullable: true }) completedAt: Date | null;
  @Column('text', { nullable: true }) recurrenceType: RecurrenceType | null;
  @Column('integer', { nullable: true }) recurrenceInterval: number | null;
  @Column('text', { array: true, nullable: true }) recurrenceDays: Weekday[] | null;
  @Column('text', { nullable: true }) recurrenceMode: RecurrenceMode | null;
  @Column('text', { nullable: true }) recurrenceTime: string | null;
  @Column('text', { nullable: true }) recurrenceTimezone: string | null;
  /** Internal cursor of scheduled recurrence; never in responses. */
  @Column('timestamptz', { nullable: true }) recurrenceNextRunAt: Date | null;
  @Column('uuid', { nullable: true }) recurrenceSourceId: string | null;
  @Column('uuid', { nullable: true }) createdByMemberId: string | null;
  @Column('timestamptz', { nullable: true }) archivedAt: Date | null;
  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
  @Column('timestamptz', { default: () => 'now()' }) updatedAt: Date;
}

@Entity('issue_assignees')
export class IssueAssigneeEntity {
  @PrimaryColumn('uuid') orgId: string;
  @PrimaryColumn('uuid') issueId: string;
  @PrimaryColumn('uuid') memberId: string;
  @Column('integer', { default: 0 }) position: number;
  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
}

@Entity('issue_labels')
export class IssueLabelEntity {
  @PrimaryColumn('uuid') orgId: string;
  @PrimaryColumn('uuid') issueId: string;
  @PrimaryColumn('uuid') labelId: string;
  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
}
