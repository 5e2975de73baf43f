import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { AccessLevel } from '../../../common/access/access-level';

export type { AccessLevel };
export const ACCESS_LEVELS: readonly AccessLevel[] = ['view', 'edit', 'admin'];

@Entity('project_members')
export class ProjectMemberEntity {
  @PrimaryColumn('uuid') orgId: string;
  @PrimaryColumn('uuid') projectId: string;
  @PrimaryColumn('uuid') memberId: string;
  @Column('text') accessLevel: AccessLevel;
  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
  @Column('timestamptz', { default: () => 'now()' }) updatedAt: Date;
}

@Entity('project_teams')
export class ProjectTeamEntity {
  @PrimaryColumn('uuid') orgId: string;
  @PrimaryColumn('uuid') projectId: string;
  @PrimaryColumn('uuid') teamId: string;
  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
}
