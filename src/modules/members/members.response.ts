export class MemberResponse {
  /** Stable organization member id (use it for assignee_id, mentions, access entries) */
  id: string;
  type: 'human' | 'agent';
  role: 'owner' | 'admin' | 'member' | 'guest';
  display_name: string;
  avatar_url: string | null;
  /** Agents only: `organization`, `project` or `personal` */
  agent_scope: string | null;
  created_at: string;
  /** Humans only, and only shown to owners and admins (and to the member themself) */
  email?: string;
}
export class MemberEnvelope {
  member: MemberResponse;
}
export class MemberList {
  members: MemberResponse[];
  total: number;
}
export class DirectoryItem {
  id: string;
  display_name: string;
  type: 'human' | 'agent';
  role: 'owner' | 'admin' | 'member' | 'guest';
  avatar_url: string | null;
}
export class MemberDirectory {
  resource: string;
  items: DirectoryItem[];
  /** Exact number of matching members */
  total: number;
  limit: number;
  offset: number;
  nextOffset: number | null;
  truncated: boolean;
  hint: string | null;
}
export class ProfileResponse extends MemberResponse {
  org_id: string;
  user_id: string | null;
}
export class ProfileEnvelope {
  member: ProfileResponse;
}
export class SuccessResponse {
  success: boolean;
}
