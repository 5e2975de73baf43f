import { MemberResponse } from './members.response';

export class InvitationResponse {
  id: string;
  /** The invited email address, as given */
  email: string;
  /** The role the membership gets on acceptance */
  role: 'admin' | 'member' | 'guest';
  /** `pending`, `accepted`, `declined`, `revoked` or `expired` (a pending invitation reads `expired` from `expires_at` on) */
  status: 'pending' | 'accepted' | 'declined' | 'revoked' | 'expired';
  /** Seven days after creation */
  expires_at: string;
}
export class InvitationEnvelope {
  invitation: InvitationResponse;
}
export class OrgInvitationResponse extends InvitationResponse {
  created_at: string;
  /** Member who created the invitation */
  invited_by_member_id: string;
  /** Accepted invitations: the member record the acceptance created (or brought back) */
  member_id: string | null;
  /** When it stopped being pending (accepted, declined, revoked, or its expiry once stored), else null */
  closed_at: string | null;
}
export class OrgInvitationList {
  invitations: OrgInvitationResponse[];
  total: number;
  limit: number;
  offset: number;
}
export class InvitationOrganization {
  id: string;
  name: string;
}
export class InviteeInvitationResponse extends InvitationResponse {
  created_at: string;
  /** The organization the invitation is for */
  organization: InvitationOrganization;
}
export class InviteeInvitationEnvelope {
  invitation: InviteeInvitationResponse;
}
export class InviteeInvitationList {
  invitations: InviteeInvitationResponse[];
  total: number;
  limit: number;
  offset: number;
}
export class AcceptedInvitationResponse {
  invitation: InviteeInvitationResponse;
  /** The caller's member record in the organization */
  member: MemberResponse;
}
