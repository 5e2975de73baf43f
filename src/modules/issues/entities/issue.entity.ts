import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Core issue columns; the work-tracking module extends the table and this entity. */
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
  @Column('uuid', { nullable: true }) createdByMemberId: string | null;
  @Column('timestamptz', { nullable: true }) archivedAt: Date | null;
  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
  @Column('timestamptz', { default: () => 'now()' }) updatedAt: Date;
}
