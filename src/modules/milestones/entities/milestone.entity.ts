import { Column, Entity, PrimaryColumn } from 'typeorm';

export type MilestoneStatus = 'planned' | 'active' | 'completed' | 'cancelled';

@Entity('milestones')
export class MilestoneEntity {
  @PrimaryColumn('uuid') orgId: string;
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') projectId: string;
  @Column('text') name: string;
  @Column('text', { nullable: true }) description: string | null;
  @Column('date', { nullable: true }) targetDate: string | null;
  @Column('text', { default: 'planned' }) status: MilestoneStatus;
  @Column('uuid', { nullable: true }) createdByMemberId: string | null;
  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
  @Column('timestamptz', { default: () => 'now()' }) updatedAt: Date;
}
