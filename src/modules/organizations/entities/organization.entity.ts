import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { PlanName } from '../../../config/config';

@Entity('organizations')
export class OrganizationEntity {
  @PrimaryColumn('uuid') id: string;
  @Column('text') name: string;
  @Column('text') issuePrefix: string;
  @Column('text') plan: PlanName;
  @Column('integer', { default: 0 }) issueSeq: number;
  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
  @Column('timestamptz', { default: () => 'now()' }) updatedAt: Date;
}
