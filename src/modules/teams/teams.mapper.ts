import type { MemberType, OrgRole } from '../members/entities/member.entity';
import type { TeamMemberResponse, TeamResponse } from './teams.response';

/** A team row as read by `TEAM_COLUMNS` (snake_case, straight from SQL). */
export interface TeamRow {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  member_count: number;
  created_at: Date | string;
  updated_at: Date | string;
}

export interface TeamMemberRow {
  id: string;
  display_name: string;
  type: MemberType;
  role: OrgRole;
}

export const toTeamResponse = (t: TeamRow): TeamResponse => ({
  id: t.id,
  name: t.name,
  slug: t.slug,
  description: t.description,
  member_count: Number(t.member_count),
  created_at: new Date(t.created_at).toISOString(),
  updated_at: new Date(t.updated_at).toISOString(),
});

export const toTeamMemberResponse = (m: TeamMemberRow): TeamMemberResponse => ({
  id: m.id,
  display_name: m.display_name,
  type: m.type,
  role: m.role,
});
