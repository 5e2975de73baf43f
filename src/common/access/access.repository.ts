import { Injectable } from '@nestjs/common';
import { Sql, type Tx } from '../../database/sql.service';
import type { AccessLevel } from './access-level';
import { grantsSql } from '../auth/auth.repository';
import type { Actor, MemberAccessRow } from '../auth/principal';

/** Explicit grants ($2 = member) and, for non-guests ($3), `edit` through teams assigned to projects. */
const GRANTS_SQL = grantsSql('$1', '$2', '$3::boolean');

export interface GrantRow {
  project_id: string;
  access_level: AccessLevel;
}

export interface ProjectLevelRow {
  id: string;
  access_level: AccessLevel | null;
}

/** An issue as the access checks see it (its project decides the caller's level). */
export interface IssueAccessRow {
  id: string;
  project_id: string | null;
  number: number;
  title: string;
  status: string;
  archived_at: Date | null;
}

/**
 * The access policy's look-ups (members, grants, projects, issues): the hot path of every request,
 * so every statement is a named prepared statement.
 */
@Injectable()
export class AccessRepository {
  constructor(private readonly sql: Sql) {}

  /** The live role of member `memberId` (a personal agent's owner), or undefined when removed or unknown. */
  async liveRole(orgId: string, memberId: string, m?: Tx): Promise<Actor['role'] | undefined> {
    const r = await this.sql.row<{ role: Actor['role'] }>(
      'SELECT role FROM members WHERE org_id = $1 AND id = $2 AND removed_at IS NULL',
      [orgId, memberId],
      m,
    );
    return r?.role;
  }

  /**
   * The live role of member `memberId`, share-locking its row for the rest of transaction `m` (a
   * concurrent role change or removal waits for it); undefined when removed or unknown.
   */
  async lockLiveRole(orgId: string, memberId: string, m: Tx): Promise<Actor['role'] | undefined> {
    const r = await this.sql.row<{ role: Actor['role'] }>(
      'SELECT role FROM members WHERE org_id = $1 AND id = $2 AND removed_at IS NULL FOR SHARE',
      [orgId, memberId],
      m,
    );
    return r?.role;
  }

  /** Explicit grants of the member, plus `edit` through its teams when `throughTeams` (non-guests). */
  grants(orgId: string, memberId: string, throughTeams: boolean, m?: Tx): Promise<GrantRow[]> {
    return this.sql.rows<GrantRow>(`SELECT project_id, access_level FROM (${GRANTS_SQL}) g`, [orgId, memberId, throughTeams], m);
  }

  /** Every project id of the organization, oldest first. */
  async projectIds(orgId: string, m?: Tx): Promise<string[]> {
    return (await this.sql.rows<{ id: string }>('SELECT id FROM projects WHERE org_id = $1 ORDER BY created_at, id', [orgId], m)).map((r) => r.id);
  }

  /** Every project of the organization, oldest first, with the member's highest grant (null when none). */
  projectGrants(orgId: string, memberId: string, throughTeams: boolean): Promise<ProjectLevelRow[]> {
    return this.sql.rows<ProjectLevelRow>(
      `SELECT p.id, g.access_level FROM projects p
         LEFT JOIN (SELECT project_id, (array_agg(access_level ORDER BY CASE access_level WHEN 'admin' THEN 3 WHEN 'edit' THEN 2 ELSE 1 END DESC))[1] AS access_level
                      FROM (${GRANTS_SQL}) x GROUP BY project_id) g ON g.project_id = p.id
        WHERE p.org_id = $1 ORDER BY p.created_at, p.id`,
      [orgId, memberId, throughTeams],
    );
  }

  /**
   * Issue `issueId` of the organization (archived included), or undefined; with its assignees
   * (links and the primary assignee, unordered), which writers hand to their events.
   */
  issue(orgId: string, issueId: string, m?: Tx): Promise<(IssueAccessRow & { assignee_ids: string[] }) | undefined> {
    return this.sql.row<IssueAccessRow & { assignee_ids: string[] }>(
      `SELECT i.id, i.project_id, i.number, i.title, i.status, i.archived_at,
              array(SELECT ia.member_id FROM issue_assignees ia WHERE ia.org_id = i.org_id AND ia.issue_id = i.id
                    UNION SELECT i.assignee_id WHERE i.assignee_id IS NOT NULL)::text[] AS assignee_ids
         FROM issues i WHERE i.org_id = $1 AND i.id = $2`,
      [orgId, issueId],
      m,
    );
  }

  /** Of the given members, the live ones, as the policy needs them to judge their access. */
  liveMembers(orgId: string, memberIds: string[], m?: Tx): Promise<MemberAccessRow[]> {
    return this.sql.rows<MemberAccessRow>(
      'SELECT id, type, role, display_name, agent_scope, owner_member_id FROM members WHERE org_id = $1 AND id = ANY($2::uuid[]) AND removed_at IS NULL',
      [orgId, memberIds],
      m,
    );
  }

  /** Whether project `projectId` exists in the organization. */
  async projectExists(orgId: string, projectId: string, m?: Tx): Promise<boolean> {
    return (await this.sql.rows('SELECT 1 FROM projects WHERE org_id = $1 AND id = $2', [orgId, projectId], m)).length > 0;
  }
}
