import { Injectable } from '@nestjs/common';
import { Sql, type Tx } from '../../database/sql.service';
import type { AccessLevel } from './entities/project-member.entity';

/** A project access entry joined with its member. */
export interface ProjectMemberRow {
  member_id: string;
  access_level: AccessLevel;
  display_name: string;
  type: 'human' | 'agent';
  role: 'owner' | 'admin' | 'member' | 'guest';
  created_at: Date;
  updated_at: Date;
}

/** A project-team link joined with its team. */
export interface ProjectTeamRow {
  team_id: string;
  name: string;
  slug: string;
  created_at: Date;
}

/** Explicit project access: member entries (project_members) and assigned teams (project_teams). */
@Injectable()
export class ProjectAccessRepository {
  constructor(private readonly sql: Sql) {}

  /** Access entries of active members (a removed member's entry grants nothing and is not listed), or only `memberId`'s. */
  members(orgId: string, projectId: string, memberId?: string, m?: Tx): Promise<ProjectMemberRow[]> {
    return this.sql.rows<ProjectMemberRow>(
      `SELECT pm.member_id, pm.access_level, mb.display_name, mb.type, mb.role, pm.created_at, pm.updated_at
       FROM project_members pm
       JOIN members mb ON mb.org_id = pm.org_id AND mb.id = pm.member_id
      WHERE pm.org_id = $1 AND pm.project_id = $2 AND mb.removed_at IS NULL
        AND ($3::uuid IS NULL OR pm.member_id = $3::uuid)
      ORDER BY pm.created_at, pm.member_id`,
      [orgId, projectId, memberId ?? null],
      m,
    );
  }

  /** Teams assigned to the project, by name, or only `teamId`. */
  teams(orgId: string, projectId: string, teamId?: string, m?: Tx): Promise<ProjectTeamRow[]> {
    return this.sql.rows<ProjectTeamRow>(
      `SELECT pt.team_id, t.name, t.slug, pt.created_at
       FROM project_teams pt
       JOIN teams t ON t.org_id = pt.org_id AND t.id = pt.team_id
      WHERE pt.org_id = $1 AND pt.project_id = $2 AND ($3::uuid IS NULL OR pt.team_id = $3::uuid)
      ORDER BY lower(t.name), pt.team_id`,
      [orgId, projectId, teamId ?? null],
      m,
    );
  }

  /** Adds an access entry; false when the member already has one for the project. */
  async addMember(orgId: string, projectId: string, memberId: string, level: AccessLevel, m?: Tx): Promise<boolean> {
    const inserted = await this.sql.rows<{ member_id: string }>(
      `INSERT INTO project_members (org_id, project_id, member_id, access_level, created_at, updated_at)
         VALUES ($1, $2, $3, $4, now(), now())
         ON CONFLICT (org_id, project_id, member_id) DO NOTHING
         RETURNING member_id`,
      [orgId, projectId, memberId, level],
      m,
    );
    return inserted.length > 0;
  }

  /** Changes the level of an access entry; false when there is none. */
  async updateMemberLevel(orgId: string, projectId: string, memberId: string, level: AccessLevel, updatedAt: Date, m?: Tx): Promise<boolean> {
    return (
      (await this.sql.run(
        'UPDATE project_members SET access_level = $4, updated_at = $5 WHERE org_id = $1 AND project_id = $2 AND member_id = $3',
        [orgId, projectId, memberId, level, updatedAt],
        m,
      )) > 0
    );
  }

  /** Deletes an access entry; false when there was none. */
  async removeMember(orgId: string, projectId: string, memberId: string): Promise<boolean> {
    return (await this.sql.run('DELETE FROM project_members WHERE org_id = $1 AND project_id = $2 AND member_id = $3', [orgId, projectId, memberId])) > 0;
  }

  /** Assigns a team to the project; false when it already is. */
  async addTeam(orgId: string, projectId: string, teamId: string, m?: Tx): Promise<boolean> {
    const inserted = await this.sql.rows(
      `INSERT INTO project_teams (org_id, project_id, team_id, created_at) VALUES ($1, $2, $3, now())
         ON CONFLICT (org_id, project_id, team_id) DO NOTHING RETURNING team_id`,
      [orgId, projectId, teamId],
      m,
    );
    return inserted.length > 0;
  }

  /** Unassigns a team from the project; false when it was not assigned. */
  async removeTeam(orgId: string, projectId: string, teamId: string): Promise<boolean> {
    return (await this.sql.run('DELETE FROM project_teams WHERE org_id = $1 AND project_id = $2 AND team_id = $3', [orgId, projectId, teamId])) > 0;
  }

  /** Gives member `memberId` `edit` entries on the existing projects among `projectIds`. */
  async grantEdit(orgId: string, memberId: string, projectIds: string[], m?: Tx): Promise<void> {
    await this.sql.run(
      `INSERT INTO project_members (org_id, project_id, member_id, access_level)
           SELECT $1, p.id, $2, 'edit' FROM projects p WHERE p.org_id = $1 AND p.id = ANY($3::uuid[])`,
      [orgId, memberId, projectIds],
      m,
    );
  }

  /** As grantEdit, skipping entries that exist; answers the project ids given an entry. */
  async grantEditIfMissing(orgId: string, memberId: string, projectIds: string[], m?: Tx): Promise<string[]> {
    const rows = await this.sql.rows<{ project_id: string }>(
      `INSERT INTO project_members (org_id, project_id, member_id, access_level)
           SELECT $1, p.id, $2, 'edit' FROM projects p WHERE p.org_id = $1 AND p.id = ANY($3::uuid[])
           ON CONFLICT DO NOTHING RETURNING project_id`,
      [orgId, memberId, projectIds],
      m,
    );
    return rows.map((r) => r.project_id);
  }

  /** Deletes member `memberId`'s entries on the given projects. */
  async removeMemberFrom(orgId: string, memberId: string, projectIds: string[], m?: Tx): Promise<void> {
    await this.sql.run('DELETE FROM project_members WHERE org_id = $1 AND member_id = $2 AND project_id = ANY($3::uuid[])', [orgId, memberId, projectIds], m);
  }

  /** Deletes every access entry of member `memberId`. */
  async removeMemberEverywhere(orgId: string, memberId: string, m?: Tx): Promise<void> {
    await this.sql.run('DELETE FROM project_members WHERE org_id = $1 AND member_id = $2', [orgId, memberId], m);
  }
}
