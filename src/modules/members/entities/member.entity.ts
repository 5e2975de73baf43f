import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { AgentScope, MemberType, OrgRole } from '../../../common/auth/roles';

export type { AgentScope, MemberType, OrgRole };
export const ORG_ROLES: readonly OrgRole[] = ['owner', 'admin', 'member', 'guest'];

@Entity('members')
export class MemberEntity {
  @PrimaryColumn('uuid') orgId: string;
  @PrimaryColumn('uuid') id: string;
  @Column('text') type: MemberType;
  @Column('uuid', { nullable: true }) userId: string | null;
  @Column('text') role: OrgRole;
  @Column('text') displayName: string;
  @Column('text', { nullable: true }) avatarUrl: string | null;
  @Column('text', { nullable: true }) agentScope: AgentScope | null;
  @Column('uuid', { nullable: true }) ownerMemberId: string | null;
  @Column('uuid', { nullable: true }) createdByMemberId: string | null;
  @Column('timestamptz', { nullable: true }) removedAt: Date | null;
  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
  @Column('timestamptz', { default: () => 'now()' }) updatedAt: Date;
}
