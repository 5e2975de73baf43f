import { Injectable } from '@nestjs/common';
import { Sql, type Tx } from '../../database/sql.service';
import type { GoalResponse } from './strategy.response';

/** SQL-ready form of the caller's strategy visibility: `$orgLevel` boolean, `$projects` uuid[] or null (= all). */
export interface StrategyFilter {
  orgLevel: boolean;
  projects: string[] | null;
}

/** SQL boolean: record alias `a` (with `project_id`) is visible; `$o` orgLevel, `$p` projects param numbers. */
export function visibleSql(a: string, o: number, p: number): string {
  return `(CASE WHEN ${a}.project_id IS NULL THEN $${o}::boolean ELSE ($${p}::uuid[] IS NULL OR ${a}.project_id = ANY($${p}::uuid[])) END)`;
}

/** SQL boolean: initiative alias `n` is visible (own project, any linked project, or organization-level). */
export function initiativeVisibleSql(n: string, o: number, p: number): string {
  return `($${p}::uuid[] IS NULL
      OR (${n}.project_id IS NOT NULL AND ${n}.project_id = ANY($${p}::uuid[]))
      OR (${n}.project_id IS NULL AND (
            EXISTS (SELECT 1 FROM initiative_projects vp WHERE vp.org_id = ${n}.org_id AND vp.initiative_id = ${n}.id AND vp.project_id = ANY($${p}::uuid[]))
            OR ($${o}::boolean AND NOT EXISTS (SELECT 1 FROM initiative_projects vp WHERE vp.org_id = ${n}.org_id AND vp.initiative_id = ${n}.id)))))`;
}

/** A goal as responses show it. */
export interface GoalRow {
  id: string;
  title: string;
  description: string | null;
  owner_member_id: string | null;
  status: GoalResponse['status'];
  target_date: string | null;
  project_id: string | null;
  created_by_member_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A new goal's stored fields. */
export interface NewGoal {
  id: string;
  title: string;
  description: string | null;
  ownerMemberId: string | null;
  status: string;
  targetDate: string | null;
  projectId: string | null;
  createdByMemberId: string;
}

/** Goal fields an update may change (absent = unchanged, null = cleared). */
export interface GoalChanges {
  title?: string;
  description?: string | null;
  ownerId?: string | null;
  status?: string;
  targetDate?: string | null;
  projectId?: string | null;
}

const CHANGE_COLUMNS: Record<keyof GoalChanges, string> = {
  title: 'title',
  description: 'description',
  ownerId: 'owner_member_id',
  status: 'status',
  targetDate: 'target_date',
  projectId: 'project_id',
};

const GOAL_SELECT = `SELECT g.id, g.title, g.description, g.owner_member_id, g.status, to_char(g.target_date, 'YYYY-MM-DD') AS target_date,
  g.project_id, g.created_by_member_id, g.created_at, g.updated_at FROM goals g`;

/** Goals of the organization (table `goals`). */
@Injectable()
export class GoalsRepository {
  constructor(private readonly sql: Sql) {}

  /** Goal `id` of the organization, or undefined. */
  find(orgId: string, id: string, m?: Tx): Promise<GoalRow | undefined> {
    return this.sql.row<GoalRow>(`${GOAL_SELECT} WHERE g.org_id = $1 AND g.id = $2`, [orgId, id], m);
  }

  /** The project binding of goal `id` (`project_id` null = organization-level), or undefined when there is no such goal. */
  projectOf(orgId: string, id: string, m?: Tx): Promise<{ project_id: string | null } | undefined> {
    return this.sql.row<{ project_id: string | null }>('SELECT project_id FROM goals WHERE org_id = $1 AND id = $2', [orgId, id], m);
  }

  /** One page of the goals visible through `f` (optionally of one status), newest first, and their total. */
  async page(orgId: string, f: StrategyFilter, status: string | null, limit: number, offset: number, m?: Tx): Promise<{ rows: GoalRow[]; total: number }> {
    const where = `g.org_id = $1 AND ${visibleSql('g', 2, 3)} AND ($4::text IS NULL OR g.status = $4)`;
    const params = [orgId, f.orgLevel, f.projects, status];
    const rows = await this.sql.planned<GoalRow>(
      `${GOAL_SELECT} WHERE ${where} ORDER BY g.created_at DESC, g.id DESC LIMIT ${limit} OFFSET ${offset}`,
      params,
      m,
    );
    const total = await this.sql.row<{ n: number }>(`SELECT count(*)::int AS n FROM goals g WHERE ${where}`, params, m);
    return { rows, total: total!.n };
  }

  /** Stores a new goal of the organization. */
  async insert(orgId: string, g: NewGoal, m?: Tx): Promise<void> {
    await this.sql.run(
      `INSERT INTO goals (org_id, id, title, description, owner_member_id, status, target_date, project_id, created_by_member_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [orgId, g.id, g.title, g.description, g.ownerMemberId, g.status, g.targetDate, g.projectId, g.createdByMemberId],
      m,
    );
  }

  /** Writes the given fields of goal `id` (and updated_at); nothing when none is given. */
  async update(orgId: string, id: string, changes: GoalChanges, m?: Tx): Promise<void> {
    const sets: string[] = [];
    const values: unknown[] = [orgId, id];
    for (const [key, column] of Object.entries(CHANGE_COLUMNS) as Array<[keyof GoalChanges, string]>) {
      const v = changes[key];
      if (v === undefined) continue;
      values.push(v);
      sets.push(`${column} = $${values.length}`);
    }
    if (sets.length) await this.sql.run(`UPDATE goals SET ${sets.join(', ')}, updated_at = now() WHERE org_id = $1 AND id = $2`, values, m);
  }

  /** Deletes goal `id` (its KPIs and initiatives stay, without goal (foreign keys to it are NO ACTION, so the references are cleared first: migration 1765660000000, docs/CITUS.md)). */
  async delete(orgId: string, id: string, m: Tx): Promise<void> {
    await this.sql.run('UPDATE kpis SET goal_id = NULL WHERE org_id = $1 AND goal_id = $2', [orgId, id], m);
    await this.sql.run('UPDATE initiatives SET goal_id = NULL WHERE org_id = $1 AND goal_id = $2', [orgId, id], m);
    await this.sql.run('DELETE FROM goals WHERE org_id = $1 AND id = $2', [orgId, id], m);
  }
}
