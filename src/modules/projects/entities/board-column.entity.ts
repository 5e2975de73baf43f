import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { RecommendationRole } from '../project.rules';

@Entity('board_columns')
export class BoardColumnEntity {
  @PrimaryColumn('uuid') orgId: string;
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') projectId: string;
  @Column('text') key: string;
  @Column('text') label: string;
  @Column('text', { nullable: true }) description: string | null;
  @Column('text', { nullable: true }) color: string | null;
  @Column('integer') position: number;
  /** Workflow role for recommendations; null = not configured */
  @Column('text', { nullable: true }) recommendationRole: RecommendationRole | null;
  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
  @Column('timestamptz', { default: () => 'now()' }) updatedAt: Date;
}
