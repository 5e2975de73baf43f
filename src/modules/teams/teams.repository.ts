import { Injectable } from '@nestjs/common';
import { Sql, type Tx } from '../../database/sql.service';
import type { MemberType, OrgRole } from '../../common/auth/roles';

/** A team as responses show it (snake_case, straight from SQL). */
export interface TeamRow {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  member_count: number;
  created_at: Date | string;
  updated_at: Date | string;
}

/** An active member of a team. */
export interface TeamMemberRow {
  id: string;
  display_name: string;
  type: MemberType;
  role: OrgRole;
}

/**
 * Columns of a team response, for `FROM teams t`. `member_count` counts active members only
 * (a removed member keeps its team_members row but is no longer counted or listed).
 */
const TEAM_COLUMNS = `t.id, t.name, t.slug, t.description, t.created_at, t.updated_at,
  (SELECT count(*)::int FROM team_members tm
     JOIN members m ON m.org_id = tm.org_id AND m.id = tm.member_id AND m.removed_at IS NULL
    WHERE tm.org_id = t.org_id AND tm.team_id = t.id) AS member_count`;

/** Active members of one team ($1 org, $2 team). */
const TEAM_MEMBERS_FROM = `FROM team_members tm
      JOIN members m ON m.org_id = tm.org_id AND m.id = tm.member_id AND m.removed_at IS NULL
     WHERE tm.org_id = $1 AND tm.team_id = $2`;

/** Teams of an organization and their members. Every statement filters by org_id. */
@Injectable()
export class TeamsRepository {
  constructor(private readonly sql: Sql) {}

  /** Team `teamId` of the organization, or undefined. */
  find(orgId: string, teamId: string): Promise<TeamRow | undefined> {
    return this.sql.row<TeamRow>(`SELECT ${TEAM_COLUMNS} FROM teams t WHERE t.org_id = $1 AND t.id = $2`, [orgId, teamId]);
  }

  /** Whether team `teamId` exists in the organization. */
  async exists(orgId: string, teamId: string, m?: Tx): Promise<boolean> {
    return (await this.sql.rows('SELECT 1 FROM teams WHERE org_id = $1 AND id = $2', [orgId, teamId], m)).length > 0;
  }

  /** One page of the organization's teams, by name. */
  list(orgId: string, page: { limit: number; offset: number }): Promise<TeamRow[]> {
    return this.sql.rows<TeamRow>(`SELECT ${TEAM_COLUMNS} FROM teams t WHERE t.org_id = $1 ORDER BY lower(t.name), t.id LIMIT $2 OFFSET $3`, [
      orgId,
      page.limit,
      page.offset,
    ]);
  }

  /** How many teams the organization has. */
  async count(orgId: string): Promise<number> {
    return (await this.sql.row<{ n: number }>('SELECT count(*)::int AS n FROM teams WHERE org_id = $1', [orgId]))?.n ?? 0;
  }

  /** Slugs of the organization equal to `base` or of the form `base-…`. */
  async slugsLike(orgId: string, base: string): Promise<Set<string>> {
    const rows = await this.sql.rows<{ slug: string }>(`SELECT slug FROM teams WHERE org_id = $1 AND (slug = $2 OR slug LIKE $2 || '-%')`, [orgId, base]);
    return new Set(rows.map((r) => r.slug));
  }

  /** Whether another team (not `exceptTeamId`) of the organization has this slug. */
  async slugTaken(orgId: string, slug: string, exceptTeamId?: string): Promise<boolean> {
    return (
      (await this.sql.rows('SELECT 1 FROM teams WHERE org_id = $1 AND slug = $2 AND ($3::uuid IS NULL OR id <> $3::uuid)', [orgId, slug, exceptTeamId ?? null]))
        .length > 0
    );
  }

  /** Stores a new team (a taken slug fails with a unique violation of `teams_slug_uq`). */
  async insert(team: { orgId: string; id: string; name: string; slug: string; description: string | null; now: Date }): Promise<void> {
    await this.sql.run('INSERT INTO teams (org_id, id, name, slug, description, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6)', [
      team.orgId,
      team.id,
      team.name,
      team.slug,
      team.description,
      team.now,
    ]);
  }

  /** Changes the given fields of team `teamId` (a taken slug fails with a unique violation of `teams_slug_uq`). */
  async update(orgId: string, teamId: string, patch: { name?: string; slug?: string; description?: string | null; updatedAt: Date }): Promise<void> {
    const set: string[] = [];
    const values: unknown[] = [orgId, teamId];
    for (const [column, value] of [
      ['name', patch.name],
      ['slug', patch.slug],
      ['description', patch.description],
      ['updated_at', patch.updatedAt],
    ] as const) {
      if (value === undefined) continue;
      values.push(value);
      set.push(`${column} = $${values.length}`);
    }
    await this.sql.run(`UPDATE teams SET ${set.join(', ')} WHERE org_id = $1 AND id = $2`, values);
  }

  /**
   * Deletes team `teamId` (its team_members and project_teams rows cascade); its issues stay,
   * without team (foreign keys to it are NO ACTION, so the references are cleared first: migration 1765660000000, docs/CITUS.md). Answers whether it existed.
   */
  async delete(orgId: string, teamId: string, m: Tx): Promise<boolean> {
    await this.sql.run('UPDATE issues SET team_id = NULL WHERE org_id = $1 AND team_id = $2', [orgId, teamId], m);
    return (await this.sql.run('DELETE FROM teams WHERE org_id = $1 AND id = $2', [orgId, teamId], m)) > 0;
  }

  /** Whether member `memberId` is in team `teamId`. */
  async hasMember(orgId: string, teamId: string, memberId: string): Promise<boolean> {
    return (await this.sql.rows('SELECT 1 FROM team_members WHERE org_id = $1 AND team_id = $2 AND member_id = $3', [orgId, teamId, memberId])).length > 0;
  }

  /** Adds member `memberId` to team `teamId` (already in it: unique violation of `team_members_pkey`). */
  async addMember(orgId: string, teamId: string, memberId: string, createdAt: Date): Promise<void> {
    await this.sql.run('INSERT INTO team_members (org_id, team_id, member_id, created_at) VALUES ($1, $2, $3, $4)', [orgId, teamId, memberId, createdAt]);
  }

  /** Takes member `memberId` out of team `teamId`; answers whether it was in it. */
  async removeMember(orgId: string, teamId: string, memberId: string): Promise<boolean> {
    return (await this.sql.run('DELETE FROM team_members WHERE org_id = $1 AND team_id = $2 AND member_id = $3', [orgId, teamId, memberId])) > 0;
  }

  /** Takes member `memberId` out of every team of the organization. */
  async removeMemberEverywhere(orgId: string, memberId: string, m?: Tx): Promise<void> {
    await this.sql.run('DELETE FROM team_members WHERE org_id = $1 AND member_id = $2', [orgId, memberId], m);
  }

  /** One page of the team's active members, by display name. */
  members(orgId: string, teamId: string, page: { limit: number; offset: number }): Promise<TeamMemberRow[]> {
    return this.sql.rows<TeamMemberRow>(
      `SELECT m.id, m.display_name, m.type, m.role ${TEAM_MEMBERS_FROM} ORDER BY lower(m.display_name), m.id LIMIT $3 OFFSET $4`,
      [orgId, teamId, page.limit, page.offset],
    );
  }

  /** How many active members the team has. */
  async memberCount(orgId: string, teamId: string): Promise<number> {
    return (await this.sql.row<{ n: number }>(`SELECT count(*)::int AS n ${TEAM_MEMBERS_FROM}`, [orgId, teamId]))?.n ?? 0;
  }

  /** Whether team `teamId` exists, share-locking its row for the rest of the transaction. */
  async lockForShare(orgId: string, teamId: string, m: Tx): Promise<boolean> {
    return (await this.sql.rows('SELECT 1 FROM teams WHERE org_id = $1 AND id = $2 FOR SHARE', [orgId, teamId], m)).length > 0;
  }
}
