import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('custom_views')
export class CustomViewEntity {
  @PrimaryColumn('uuid') orgId: string;
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') projectId: string;
  @Column('text') name: string;
  @Column('jsonb', { default: {} }) filters: Record<string, unknown>;
  @Column('jsonb', { nullable: true }) sort: Record<string, unknown> | null;
  @Column('text', { default: 'list' }) displayMode: string;
  @Column('text', { nullable: true }) color: string | null;
  @Column('text', { nullable: true }) icon: string | null;
  @Column('boolean', { default: false }) isDefault: boolean;
  @Column('uuid', { nullable: true }) createdByMemberId: string | null;
  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
  @Column('timestamptz', { default: () => 'now()' }) updatedAt: Date;
}
