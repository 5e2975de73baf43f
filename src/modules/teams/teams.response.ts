export class TeamResponse {
  id: string;
  name: string;
  /** Lowercase kebab-case identifier, unique in the organization (derived from the name unless given) */
  slug: string;
  description: string | null;
  /** Active (not removed) members of the team */
  member_count: number;
  created_at: string;
  updated_at: string;
}
export class TeamEnvelope {
  team: TeamResponse;
}
export class TeamList {
  teams: TeamResponse[];
  total: number;
  limit: number;
  offset: number;
}
export class TeamMemberResponse {
  /** The organization member id */
  id: string;
  display_name: string;
  /** `human` or `agent` */
  type: 'human' | 'agent';
  /** Live organization role of the member */
  role: 'owner' | 'admin' | 'member' | 'guest';
}
export class TeamMemberEnvelope {
  member: TeamMemberResponse;
}
export class TeamMemberList {
  members: TeamMemberResponse[];
  total: number;
  limit: number;
  offset: number;
}
export class SuccessResponse {
  success: boolean;
}
