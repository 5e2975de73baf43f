import { QueryFailedError } from 'typeorm';
import type { TeamRow } from './teams.mapper';

/** Anything that runs SQL: the DataSource or a transaction's EntityManager. */
export interface Queryable {
  query(sql: string, params?: unknown[]): Promise<any>;
}

/**
 * Columns of a team response, for `FROM teams t`. `member_count` counts active members only
 * (a removed member keeps its team_members row but is no longer counted or listed).
 */
export const TEAM_COLUMNS = `t.id, t.name, t.slug, t.description, t.created_at, t.updated_at,
  (SELECT count(*)::int FROM team_members tm
     JOIN members m ON m.org_id = tm.org_id AND m.id = tm.member_id AND m.removed_at IS NULL
    WHERE tm.org_id = t.org_id AND tm.team_id = t.id) AS member_count`;

/** One team of the organization, or undefined (always filtered by org_id). */
export async function findTeam(db: Queryable, orgId: string, teamId: string): Promise<TeamRow | undefined> {
  const rows: TeamRow[] = await db.query(`SELECT ${TEAM_COLUMNS} FROM teams t WHERE t.org_id = $1 AND t.id = $2`, [orgId, teamId]);
  return rows[0];
}

export async function teamExists(db: Queryable, orgId: string, teamId: string): Promise<boolean> {
  const rows: unknown[] = await db.query('SELECT 1 FROM teams WHERE org_id = $1 AND id = $2', [orgId, teamId]);
  return rows.length > 0;
}

/** A PostgreSQL unique violation of the named constraint/index (a lost race after an explicit check). */
export function isUniqueViolation(e: unknown, constraint: string): boolean {
  if (!(e instanceof QueryFailedError)) return false;
  const d = e.driverError as { code?: string; constraint?: string } | undefined;
  return d?.code === '23505' && d.constraint === constraint;
}
