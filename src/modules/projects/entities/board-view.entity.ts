import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('board_views')
export class BoardViewEntity {
  @PrimaryColumn('uuid') orgId: string;
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') projectId: string;
  @Column('text') name: string;
  @Column('boolean', { default: false }) isDefault: boolean;
  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
  @Column('timestamptz', { default: () => 'now()' }) updatedAt: Date;
}

@Entity('board_view_columns')
export class BoardViewColumnEntity {
  @PrimaryColumn('uuid') orgId: string;
  @PrimaryColumn('uuid') viewId: string;
  @PrimaryColumn('uuid') columnId: string;
  @Column('integer') position: number;
}
