import type { TeamMemberRow, TeamRow } from './teams.repository';
import type { TeamMemberResponse, TeamResponse } from './teams.response';

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
