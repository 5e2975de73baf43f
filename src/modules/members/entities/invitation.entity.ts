import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Roles an invitation may carry: owners are made by promoting a member, never invited. */
export type InvitableRole = 'admin' | 'member' | 'guest';
export const INVITABLE_ROLES: readonly InvitableRole[] = ['admin', 'member', 'guest'];

export type InvitationStatus = 'pending' | 'accepted' | 'declined' | 'revoked' | 'expired';
export const INVITATION_STATUSES: readonly InvitationStatus[] = ['pending', 'accepted', 'declined', 'revoked', 'expired'];

@Entity('invitations')
export class InvitationEntity {
  @PrimaryColumn('uuid') orgId: string;
  @PrimaryColumn('uuid') id: string;
  @Column('text') email: string;
  @Column('text') role: InvitableRole;
  @Column('text') status: InvitationStatus;
  @Column('uuid') invitedByMemberId: string;
  @Column('uuid', { nullable: true }) memberId: string | null;
  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
  @Column('timestamptz') expiresAt: Date;
  @Column('timestamptz', { nullable: true }) closedAt: Date | null;
}
