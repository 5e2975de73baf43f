import type { MemberResponse } from './members.response';

export interface MemberRow {
  id: string;
  type: 'human' | 'agent';
  role: 'owner' | 'admin' | 'member' | 'guest';
  display_name: string;
  avatar_url: string | null;
  agent_scope: string | null;
  created_at: Date | string;
  email?: string | null;
}

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

export const MEMBER_COLUMNS = `m.id, m.type, m.role, m.display_name, m.avatar_url, m.agent_scope, m.created_at, u.email`;
