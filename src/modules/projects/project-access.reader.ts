import type { EntityManager } from 'typeorm';
import type { ProjectMemberRow, ProjectTeamRow } from './projects.mapper';

/** Access entries of active members (a removed member's entry grants nothing and is not listed). */
export function readProjectMembers(m: EntityManager, orgId: string, projectId: string, memberId?: string): Promise<ProjectMemberRow[]> {
  return m.query(
    `SELECT pm.member_id, pm.access_level, mb.display_name, mb.type, mb.role, pm.created_at, pm.updated_at
       FROM project_members pm
       JOIN members mb ON mb.org_id = pm.org_id AND mb.id = pm.member_id
      WHERE pm.org_id = $1 AND pm.project_id = $2 AND mb.removed_at IS NULL
        AND ($3::uuid IS NULL OR pm.member_id = $3::uuid)
      ORDER BY pm.created_at, pm.member_id`,
    [orgId, projectId, memberId ?? null],
  );
}

export function readProjectTeams(m: EntityManager, orgId: string, projectId: string, teamId?: string): Promise<ProjectTeamRow[]> {
  return m.query(
    `SELECT pt.team_id, t.name, t.slug, pt.created_at
       FROM project_teams pt
       JOIN teams t ON t.org_id = pt.org_id AND t.id = pt.team_id
      WHERE pt.org_id = $1 AND pt.project_id = $2 AND ($3::uuid IS NULL OR pt.team_id = $3::uuid)
      ORDER BY lower(t.name), pt.team_id`,
    [orgId, projectId, teamId ?? null],
  );
}
