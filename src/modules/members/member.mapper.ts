import type { MemberRow } from './members.repository';
import type { MemberResponse } from './members.response';

/** The member record; `withEmail` only for callers allowed to see it. */
export function toMemberResponse(r: MemberRow, withEmail: boolean): MemberResponse {
  const out: MemberResponse = {
    id: r.id,
    type: r.type,
    role: r.role,
    display_name: r.display_name,
    avatar_url: r.avatar_url ?? null,
    agent_scope: r.agent_scope ?? null,
    created_at: new Date(r.created_at).toISOString(),
  };
  if (withEmail && r.email) out.email = r.email;
  return out;
}
