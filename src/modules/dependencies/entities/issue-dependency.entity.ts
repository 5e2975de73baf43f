import { Column, Entity, PrimaryColumn } from 'typeorm';

/** `blocking_issue_id` blocks `blocked_issue_id` until it reaches `release_column_id`. */
@Entity('issue_dependencies')
export class IssueDependencyEntity {
  @PrimaryColumn('uuid') orgId: string;
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') blockingIssueId: string;
  @Column('uuid') blockedIssueId: string;
  @Column('uuid', { nullable: true }) releaseColumnId: string | null;
  @Column('uuid', { nullable: true }) createdByMemberId: string | null;
  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
}
