import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('projects')
export class ProjectEntity {
  @PrimaryColumn('uuid') orgId: string;
  @PrimaryColumn('uuid') id: string;
  @Column('text') name: string;
  @Column('text') key: string;
  @Column('text') slug: string;
  @Column('text', { nullable: true }) description: string | null;
  @Column('text', { nullable: true }) color: string | null;
  @Column('text', { nullable: true }) icon: string | null;
  @Column('text', { default: 'active' }) status: 'active' | 'archived';
  @Column('integer', { default: 0 }) issueSeq: number;
  @Column('uuid', { nullable: true }) createdByMemberId: string | null;
  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
  @Column('timestamptz', { default: () => 'now()' }) updatedAt: Date;
}
