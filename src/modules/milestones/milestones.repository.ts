import { Injectable } from '@nestjs/common';
import { Sql, type Tx } from '../../database/sql.service';
import type { MilestoneStatus } from './entities/milestone.entity';

/** A milestone as responses show it, with the number of its non-archived issues. */
export interface MilestoneRow {
  id: string;
  project_id: string;
  name: string;
  description: string | null;
  target_date: string | null;
  status: MilestoneStatus;
  created_at: Date;
  updated_at: Date;
  issue_count: number;
}

/** The identity of a milestone: id, project and name. */
export interface MilestoneRefRow {
  id: string;
  project_id: string;
  name: string;
}

/** A new milestone's stored fields. */
export interface NewMilestone {
  id: string;
  projectId: string;
  name: string;
  description: string | null;
  targetDate: string | null;
  status: MilestoneStatus;
  createdByMemberId: string;
  createdAt: Date;
  updatedAt: Date;
}

/** The fields an update may change (absent = unchanged). */
export type MilestoneChanges = Partial<Pick<NewMilestone, 'name' | 'description' | 'targetDate' | 'status'>>;

const CHANGE_COLUMNS: Record<keyof MilestoneChanges, string> = { name: 'name', description: 'description', targetDate: 'target_date', status: 'status' };

const SELECT = `SELECT m.id, m.project_id, m.name, m.description, to_char(m.target_date, 'YYYY-MM-DD') AS target_date, m.status,
    m.created_at, m.updated_at,
    (SELECT count(*)::int FROM issues i WHERE i.org_id = m.org_id AND i.milestone_id = m.id AND i.archived_at IS NULL) AS issue_count
  FROM milestones m`;

/** Milestones of projects (table `milestones`; the issue count joins `issues`). */
@Injectable()
export class MilestonesRepository {
  constructor(private readonly sql: Sql) {}

  /** Milestones of one project: open ones first by target date, then by name. */
  listOfProject(orgId: string, projectId: string, m?: Tx): Promise<MilestoneRow[]> {
    return this.sql.rows<MilestoneRow>(
      `${SELECT} WHERE m.org_id = $1 AND m.project_id = $2 ORDER BY m.target_date ASC NULLS LAST, lower(m.name), m.id`,
      [orgId, projectId],
      m,
    );
  }

  /** Milestone `id` of the organization with its issue count, or undefined. */
  find(orgId: string, id: string, m?: Tx): Promise<MilestoneRow | undefined> {
    return this.sql.row<MilestoneRow>(`${SELECT} WHERE m.org_id = $1 AND m.id = $2`, [orgId, id], m);
  }

  /** Id, project and name of milestone `id` of the organization, or undefined. */
  findRef(orgId: string, id: string, m?: Tx): Promise<MilestoneRefRow | undefined> {
    return this.sql.row<MilestoneRefRow>('SELECT id, project_id, name FROM milestones WHERE org_id = $1 AND id = $2', [orgId, id], m);
  }

  /** Milestones of the organization named exactly `name` (oldest first, at most 1,000). */
  findRefsByName(orgId: string, name: string, m?: Tx): Promise<MilestoneRefRow[]> {
    return this.sql.rows<MilestoneRefRow>(
      'SELECT id, project_id, name FROM milestones WHERE org_id = $1 AND name = $2 ORDER BY created_at, id LIMIT 1000',
      [orgId, name],
      m,
    );
  }

  /** Whether milestone `id` exists in project `projectId`. */
  async existsInProject(orgId: string, id: string, projectId: string, m?: Tx): Promise<boolean> {
    return (await this.sql.rows('SELECT 1 FROM milestones WHERE org_id = $1 AND id = $2 AND project_id = $3', [orgId, id, projectId], m)).length > 0;
  }

  /** Project of milestone `id` of the organization, or null. */
  async projectOf(orgId: string, id: string, m?: Tx): Promise<string | null> {
    return (await this.sql.row<{ project_id: string }>('SELECT project_id FROM milestones WHERE org_id = $1 AND id = $2', [orgId, id], m))?.project_id ?? null;
  }

  /** Whether another milestone of the project (not `exceptId`) has this name, case-insensitively. */
  async nameTaken(orgId: string, projectId: string, name: string, exceptId?: string, m?: Tx): Promise<boolean> {
    const rows =
      exceptId === undefined
        ? await this.sql.rows('SELECT 1 FROM milestones WHERE org_id = $1 AND project_id = $2 AND lower(name) = lower($3)', [orgId, projectId, name], m)
        : await this.sql.rows(
            'SELECT 1 FROM milestones WHERE org_id = $1 AND project_id = $2 AND lower(name) = lower($3) AND id <> $4',
            [orgId, projectId, name, exceptId],
            m,
          );
    return rows.length > 0;
  }

  /** Stores a new milestone of the organization. */
  async insert(orgId: string, n: NewMilestone, m?: Tx): Promise<void> {
    await this.sql.run(
      `INSERT INTO milestones (org_id, id, project_id, name, description, target_date, status, created_by_member_id, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [orgId, n.id, n.projectId, n.name, n.description, n.targetDate, n.status, n.createdByMemberId, n.createdAt, n.updatedAt],
      m,
    );
  }

  /** Writes the given fields of milestone `id` and its updated_at. */
  async update(orgId: string, id: string, changes: MilestoneChanges, updatedAt: Date, m?: Tx): Promise<void> {
    const sets: string[] = [];
    const values: unknown[] = [orgId, id];
    for (const [key, column] of Object.entries(CHANGE_COLUMNS) as Array<[keyof MilestoneChanges, string]>) {
      if (changes[key] === undefined) continue;
      values.push(changes[key]);
      sets.push(`${column} = $${values.length}`);
    }
    values.push(updatedAt);
    sets.push(`updated_at = $${values.length}`);
    await this.sql.run(`UPDATE milestones SET ${sets.join(', ')} WHERE org_id = $1 AND id = $2`, values, m);
  }

  /** Deletes milestone `id` (its issues keep existing, milestone cleared (foreign keys to it are NO ACTION, so the references are cleared first: migration 1765660000000, docs/CITUS.md)); answers the rows deleted. */
  async delete(orgId: string, id: string, m: Tx): Promise<number> {
    await this.sql.run('UPDATE issues SET milestone_id = NULL WHERE org_id = $1 AND milestone_id = $2', [orgId, id], m);
    return this.sql.run('DELETE FROM milestones WHERE org_id = $1 AND id = $2', [orgId, id], m);
  }
}
