import { Injectable } from '@nestjs/common';
import type { MemberAccessRow } from '../../common/auth/principal';
import { Sql, type Tx } from '../../database/sql.service';
import type { MemberEntity, MemberType, OrgRole } from './entities/member.entity';
import type { DirectoryItem } from './members.response';

/** A member record as responses show it (`email` from the user account of humans). */
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

/** A member's own record (the profile): the member row and its user id. */
export interface ProfileRow extends MemberRow {
  user_id: string | null;
}

/** A live member as a list of names shows it (team members). */
export interface MemberSummaryRow {
  id: string;
  display_name: string;
  type: MemberType;
  role: OrgRole;
}

/** Which live members the member list and directory show. */
export interface MemberFilter {
  type?: MemberType;
  /** Scoped to a project: guests only with an access entry for it. */
  projectId?: string;
  /** Without a project scope: leave guests out. */
  excludeGuests: boolean;
  /** Case-insensitive display-name search. */
  q?: string;
}

const MEMBER_COLUMNS = `m.id, m.type, m.role, m.display_name, m.avatar_url, m.agent_scope, m.created_at, u.email`;

/** The columns of a member record, as `MemberEntity`. */
const ENTITY_COLUMNS = `org_id AS "orgId", id, type, user_id AS "userId", role, display_name AS "displayName", avatar_url AS "avatarUrl",
  agent_scope AS "agentScope", owner_member_id AS "ownerMemberId", created_by_member_id AS "createdByMemberId",
  removed_at AS "removedAt", created_at AS "createdAt", updated_at AS "updatedAt"`;

/** The WHERE clause of a member filter (texts from a fixed set of fragments) and its values. */
function filterSql(orgId: string, f: MemberFilter): { sql: string; params: unknown[] } {
  const where: string[] = ['m.org_id = $1', 'm.removed_at IS NULL'];
  const params: unknown[] = [orgId];
  if (f.type) {
    params.push(f.type);
    where.push(`m.type = $${params.length}`);
  }
  if (f.projectId !== undefined) {
    params.push(f.projectId);
    where.push(
      `(m.role <> 'guest' OR EXISTS (SELECT 1 FROM project_members pm WHERE pm.org_id = m.org_id AND pm.member_id = m.id AND pm.project_id = $${params.length}))`,
    );
  } else if (f.excludeGuests) {
    where.push(`m.role <> 'guest'`);
  }
  if (f.q) {
    params.push(`%${f.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where.push(`m.display_name ILIKE $${params.length}`);
  }
  return { sql: where.join(' AND '), params };
}

/** Organization members (humans and agents share the member record) and the member directory. */
@Injectable()
export class MembersRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * Locks the organization row for the rest of the transaction: role changes and removals of one
   * organization run one at a time (the last-owner rule cannot race).
   */
  async lockOrganization(orgId: string, m: Tx): Promise<void> {
    await this.sql.run('SELECT 1 FROM organizations WHERE id = $1 FOR UPDATE', [orgId], m);
  }

  /** Member `id` of the organization (removed ones included), or undefined. */
  findById(orgId: string, id: string, m?: Tx): Promise<MemberEntity | undefined> {
    return this.sql.row<MemberEntity>(`SELECT ${ENTITY_COLUMNS} FROM members WHERE org_id = $1 AND id = $2`, [orgId, id], m);
  }

  /** The live human memberships of user `userId` (every organization it belongs to), oldest first. */
  humanMembershipsOf(userId: string, m?: Tx): Promise<Array<{ org_id: string; member_id: string; role: OrgRole; display_name: string }>> {
    return this.sql.rows(
      `SELECT org_id, id AS member_id, role, display_name FROM members
        WHERE user_id = $1 AND type = 'human' AND removed_at IS NULL ORDER BY created_at, org_id`,
      [userId],
      m,
    );
  }

  /** The member record of user `userId` in the organization (removed ones included), or undefined. */
  findByUser(orgId: string, userId: string, m?: Tx): Promise<MemberEntity | undefined> {
    return this.sql.row<MemberEntity>(`SELECT ${ENTITY_COLUMNS} FROM members WHERE org_id = $1 AND user_id = $2`, [orgId, userId], m);
  }

  /** How many live owners the organization has. */
  async countOwners(orgId: string, m?: Tx): Promise<number> {
    return (await this.sql.row<{ n: number }>(
      `SELECT count(*)::int AS n FROM members WHERE org_id = $1 AND role = 'owner' AND removed_at IS NULL`,
      [orgId],
      m,
    ))!.n;
  }

  /** Adds a human member (user `userId`) to the organization. */
  async insertHuman(
    member: { orgId: string; id: string; userId: string; role: OrgRole; displayName: string; createdByMemberId: string | null; now: Date },
    m?: Tx,
  ): Promise<void> {
    await this.sql.run(
      `INSERT INTO members (org_id, id, type, user_id, role, display_name, created_by_member_id, created_at, updated_at)
       VALUES ($1, $2, 'human', $3, $4, $5, $6, $7, $7)`,
      [member.orgId, member.id, member.userId, member.role, member.displayName, member.createdByMemberId, member.now],
      m,
    );
  }

  /** Brings a removed member back with `role`. */
  async reinstate(orgId: string, id: string, role: OrgRole, now: Date, m?: Tx): Promise<void> {
    await this.sql.run('UPDATE members SET role = $3, removed_at = NULL, updated_at = $4 WHERE org_id = $1 AND id = $2', [orgId, id, role, now], m);
  }

  /** Changes the display name and/or role of member `id` (undefined keeps the value). */
  async update(orgId: string, id: string, changes: { displayName?: string; role?: OrgRole; updatedAt: Date }, m?: Tx): Promise<void> {
    await this.sql.run(
      'UPDATE members SET display_name = COALESCE($3, display_name), role = COALESCE($4, role), updated_at = $5 WHERE org_id = $1 AND id = $2',
      [orgId, id, changes.displayName ?? null, changes.role ?? null, changes.updatedAt],
      m,
    );
  }

  /**
   * Removes member `id` (the record stays with `removed_at`) and, at once, its project and team
   * access entries and its API keys.
   */
  async remove(orgId: string, id: string, now: Date, m: Tx): Promise<void> {
    await this.sql.run('UPDATE members SET removed_at = $3, updated_at = $3 WHERE org_id = $1 AND id = $2', [orgId, id, now], m);
    await this.sql.run('DELETE FROM project_members WHERE org_id = $1 AND member_id = $2', [orgId, id], m);
    await this.sql.run('DELETE FROM team_members WHERE org_id = $1 AND member_id = $2', [orgId, id], m);
    await this.sql.run('UPDATE api_keys SET revoked_at = now() WHERE org_id = $1 AND member_id = $2 AND revoked_at IS NULL', [orgId, id], m);
  }

  /** Member `id` as responses show it, or undefined. */
  view(orgId: string, id: string, m?: Tx): Promise<MemberRow | undefined> {
    return this.sql.row<MemberRow>(
      `SELECT ${MEMBER_COLUMNS} FROM members m LEFT JOIN users u ON u.id = m.user_id WHERE m.org_id = $1 AND m.id = $2`,
      [orgId, id],
      m,
    );
  }

  /** Member `id` with its user id (the caller's profile), or undefined. */
  profile(orgId: string, id: string): Promise<ProfileRow | undefined> {
    return this.sql.row<ProfileRow>(
      `SELECT ${MEMBER_COLUMNS}, m.user_id FROM members m LEFT JOIN users u ON u.id = m.user_id WHERE m.org_id = $1 AND m.id = $2`,
      [orgId, id],
    );
  }

  /** Live member `id` as a list of names shows it, or undefined. */
  liveSummary(orgId: string, id: string, m?: Tx): Promise<MemberSummaryRow | undefined> {
    return this.sql.row<MemberSummaryRow>(
      'SELECT id, display_name, type, role FROM members WHERE org_id = $1 AND id = $2 AND removed_at IS NULL',
      [orgId, id],
      m,
    );
  }

  /** The legacy member list: every matching member, by display name. */
  list(orgId: string, filter: MemberFilter): Promise<MemberRow[]> {
    const f = filterSql(orgId, filter);
    return this.sql.planned<MemberRow>(
      `SELECT ${MEMBER_COLUMNS} FROM members m LEFT JOIN users u ON u.id = m.user_id WHERE ${f.sql} ORDER BY lower(m.display_name), m.id`,
      f.params,
    );
  }

  /** One page of the member directory, by display name, each row with the total of matches. */
  directory(orgId: string, filter: MemberFilter, page: { limit: number; offset: number }): Promise<Array<DirectoryItem & { total: number }>> {
    const f = filterSql(orgId, filter);
    const n = f.params.length;
    return this.sql.rows<DirectoryItem & { total: number }>(
      `SELECT m.id, m.display_name, m.type, m.role, m.avatar_url, count(*) OVER()::int AS total
         FROM members m WHERE ${f.sql}
        ORDER BY lower(m.display_name), m.id LIMIT $${n + 1} OFFSET $${n + 2}`,
      [...f.params, page.limit, page.offset],
    );
  }

  /** How many members match the filter. */
  async count(orgId: string, filter: MemberFilter): Promise<number> {
    const f = filterSql(orgId, filter);
    return (await this.sql.planned<{ n: number }>(`SELECT count(*)::int AS n FROM members m WHERE ${f.sql}`, f.params))[0].n;
  }

  /** Live member `id`'s type and agent scope, share-locking its row for the rest of the transaction; undefined when not live. */
  lockLiveForShare(orgId: string, id: string, m: Tx): Promise<{ type: MemberType; agent_scope: string | null } | undefined> {
    return this.sql.row<{ type: MemberType; agent_scope: string | null }>(
      'SELECT type, agent_scope FROM members WHERE org_id = $1 AND id = $2 AND removed_at IS NULL FOR SHARE',
      [orgId, id],
      m,
    );
  }

  /** The access rows (type, role, agent scope and owner) of the live members among `ids`. */
  liveAccessAmong(orgId: string, ids: string[], m?: Tx): Promise<MemberAccessRow[]> {
    return this.sql.rows<MemberAccessRow>(
      'SELECT id, type, role, display_name, agent_scope, owner_member_id FROM members WHERE org_id = $1 AND id = ANY($2::uuid[]) AND removed_at IS NULL',
      [orgId, ids],
      m,
    );
  }

  /**
   * The ids among `ids` of live members who can read project `projectId` (projectless: null): an
   * org-wide role, or a project membership; personal agents are judged by their live owner.
   */
  async assignableAmong(orgId: string, ids: string[], projectId: string | null, m?: Tx): Promise<string[]> {
    const rows = await this.sql.rows<{ id: string }>(
      `SELECT m.id FROM members m
         LEFT JOIN members o ON o.org_id = m.org_id AND o.id = m.owner_member_id AND o.removed_at IS NULL
         CROSS JOIN LATERAL (SELECT CASE WHEN m.agent_scope = 'personal' THEN o.id ELSE m.id END AS sid,
                                    CASE WHEN m.agent_scope = 'personal' THEN o.role ELSE m.role END AS srole) s
        WHERE m.org_id = $1 AND m.id = ANY($2::uuid[]) AND m.removed_at IS NULL AND s.sid IS NOT NULL
          AND (s.srole IN ('owner', 'admin', 'member')
               OR ($3::uuid IS NOT NULL AND EXISTS (SELECT 1 FROM project_members pm WHERE pm.org_id = $1 AND pm.project_id = $3 AND pm.member_id = s.sid)))`,
      [orgId, ids, projectId],
      m,
    );
    return rows.map((r) => r.id);
  }
}
