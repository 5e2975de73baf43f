import type { InvitationRow, InviteeInvitationRow } from './invitations.repository';
import type { InvitationResponse, InviteeInvitationResponse, OrgInvitationResponse } from './invitations.response';

const iso = (d: Date | string) => new Date(d).toISOString();

/** The invitation as its creation answers it (the same whether or not an account has the email). */
export function toInvitationResponse(r: InvitationRow): InvitationResponse {
  return { id: r.id, email: r.email, role: r.role, status: r.status, expires_at: iso(r.expires_at) };
}

/** The invitation as the organization's owners and admins list it. */
export function toOrgInvitationResponse(r: InvitationRow): OrgInvitationResponse {
  return {
    ...toInvitationResponse(r),
    created_at: iso(r.created_at),
    invited_by_member_id: r.invited_by_member_id,
    member_id: r.member_id,
    closed_at: r.closed_at ? iso(r.closed_at) : null,
  };
}

/** The invitation as its invitee sees it: which organization it is for. */
export function toInviteeInvitationResponse(r: InviteeInvitationRow): InviteeInvitationResponse {
  return { ...toInvitationResponse(r), created_at: iso(r.created_at), organization: { id: r.org_id, name: r.org_name } };
}
