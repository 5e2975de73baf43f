import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('activity_events')
export class ActivityEventEntity {
  @PrimaryColumn('uuid') orgId: string;
  @PrimaryColumn('uuid') id: string;
  @Column('uuid', { nullable: true }) issueId: string | null;
  @Column('uuid', { nullable: true }) projectId: string | null;
  @Column('uuid', { nullable: true }) actorMemberId: string | null;
  @Column('text') action: string;
  @Column('jsonb', { default: {} }) metadata: Record<string, unknown>;
  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
}
