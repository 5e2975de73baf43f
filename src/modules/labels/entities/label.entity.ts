import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('labels')
export class LabelEntity {
  @PrimaryColumn('uuid') orgId: string;
  @PrimaryColumn('uuid') id: string;
  @Column('text') name: string;
  @Column('text', { nullable: true }) color: string | null;
  @Column('text', { nullable: true }) description: string | null;
  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
  @Column('timestamptz', { default: () => 'now()' }) updatedAt: Date;
}
