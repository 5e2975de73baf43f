import { Injectable } from '@nestjs/common';
import { Sql, type Tx } from '../../database/sql.service';
import type { ProjectEntity } from './entities/project.entity';

/** A project's id and name (what other views show of a project). */
export interface ProjectSummaryRow {
  id: string;
  name: string;
}

/** The editable fields of a project. */
export interface ProjectPatch {
  name?: string;
  description?: string | null;
  color?: string | null;
  icon?: string | null;
  status?: 'active' | 'archived';
}

/** The columns of a project, as `ProjectEntity` (for `FROM projects p`). */
const ENTITY_COLUMNS = `p.org_id AS "orgId", p.id, p.name, p.key, p.slug, p.description, p.color, p.icon, p.status, p.issue_seq AS "issueSeq",
  p.created_by_member_id AS "createdByMemberId", p.created_at AS "createdAt", p.updated_at AS "updatedAt"`;

/** Fields of a patch and their columns, in SET order. */
const PATCH_COLUMNS: ReadonlyArray<[keyof ProjectPatch, string]> = [
  ['name', 'name'],
  ['description', 'description'],
  ['color', 'color'],
  ['icon', 'icon'],
  ['status', 'status'],
];

/** Projects (the project rows; access entries, board and views have repositories of their own). */
@Injectable()
export class ProjectsRepository {
  constructor(private readonly sql: Sql) {}

  /** Project `id` of the organization, or undefined. */
  findById(orgId: string, id: string, m?: Tx): Promise<ProjectEntity | undefined> {
    return this.sql.row<ProjectEntity>(`SELECT ${ENTITY_COLUMNS} FROM projects p WHERE p.org_id = $1 AND p.id = $2`, [orgId, id], m);
  }

  /** One page of the organization's projects (only `ids` unless 'all'; optionally of one status), oldest first, and the total. */
  async list(
    orgId: string,
    filter: { ids: 'all' | string[]; status?: 'active' | 'archived' },
    page: { limit: number; offset: number },
  ): Promise<{ rows: ProjectEntity[]; total: number }> {
    const where = ['p.org_id = $1'];
    const values: unknown[] = [orgId];
    if (filter.ids !== 'all') {
      values.push(filter.ids);
      where.push(`p.id = ANY($${values.length}::uuid[])`);
    }
    if (filter.status) {
      values.push(filter.status);
      where.push(`p.status = $${values.length}`);
    }
    const n = values.length;
    const [rows, count] = await Promise.all([
      this.sql.planned<ProjectEntity>(
        `SELECT ${ENTITY_COLUMNS} FROM projects p WHERE ${where.join(' AND ')} ORDER BY p.created_at ASC, p.id ASC LIMIT $${n + 1} OFFSET $${n + 2}`,
        [...values, page.limit, page.offset],
      ),
      this.sql.planned<{ n: number }>(`SELECT count(*)::int AS n FROM projects p WHERE ${where.join(' AND ')}`, values),
    ]);
    return { rows, total: count[0]?.n ?? 0 };
  }

  /** Names of the given projects of the organization (ids that do not exist are left out). */
  async summaries(orgId: string, ids: Iterable<string>): Promise<Map<string, ProjectSummaryRow>> {
    const list = [...new Set(ids)];
    const out = new Map<string, ProjectSummaryRow>();
    if (!list.length) return out;
    const rows = await this.sql.rows<ProjectSummaryRow>('SELECT id, name FROM projects WHERE org_id = $1 AND id = ANY($2::uuid[])', [orgId, list]);
    for (const r of rows) out.set(r.id, r);
    return out;
  }

  /**
   * Serializes project creations of the organization until commit (a transaction-scoped advisory
   * lock): the key and slug a creation picks stay free until it has inserted them.
   */
  async lockCreations(orgId: string, m: Tx): Promise<void> {
    await this.sql.run(`SELECT pg_advisory_xact_lock(hashtextextended('project-keys:' || $1::text, 0))`, [orgId], m);
  }

  /** Every project key of the organization. */
  async keys(orgId: string, m?: Tx): Promise<Set<string>> {
    return new Set((await this.sql.rows<{ key: string }>('SELECT key FROM projects WHERE org_id = $1', [orgId], m)).map((r) => r.key));
  }

  /** Slugs of the organization equal to `base` or of the form `base-…`. */
  async slugsLike(orgId: string, base: string, m?: Tx): Promise<Set<string>> {
    const rows = await this.sql.rows<{ slug: string }>(
      'SELECT slug FROM projects WHERE org_id = $1 AND (slug = $2 OR slug LIKE $3)',
      [orgId, base, `${base}-%`],
      m,
    );
    return new Set(rows.map((r) => r.slug));
  }

  /** Stores a new project. */
  async insert(p: ProjectEntity, m?: Tx): Promise<void> {
    await this.sql.run(
      `INSERT INTO projects (org_id, id, name, key, slug, description, color, icon, status, issue_seq, created_by_member_id, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [p.orgId, p.id, p.name, p.key, p.slug, p.description, p.color, p.icon, p.status, p.issueSeq, p.createdByMemberId, p.createdAt, p.updatedAt],
      m,
    );
  }

  /** Changes the given fields of project `id`. */
  async update(orgId: string, id: string, patch: ProjectPatch, updatedAt: Date, m?: Tx): Promise<void> {
    const set: string[] = [];
    const values: unknown[] = [orgId, id];
    for (const [field, column] of PATCH_COLUMNS) {
      if (patch[field] === undefined) continue;
      values.push(patch[field]);
      set.push(`${column} = $${values.length}`);
    }
    values.push(updatedAt);
    set.push(`updated_at = $${values.length}`);
    await this.sql.run(`UPDATE projects SET ${set.join(', ')} WHERE org_id = $1 AND id = $2`, values, m);
  }

  /**
   * Deletes project `id` and everything in it (foreign keys cascade: milestones, issues with their
   * comments and executions, board columns); answers whether it existed. First clears every
   * reference to those rows (foreign keys to it are NO ACTION, so the references are cleared first: migration 1765660000000, docs/CITUS.md): goals, KPIs and initiatives lose the project; issues the
   * milestone, parent or recurrence source; dependencies the release column; KPI snapshots the
   * issue; runner leases the execution; replies the replied-to comment of another issue.
   */
  async delete(orgId: string, id: string, m: Tx): Promise<boolean> {
    const inProject = 'SELECT i.id FROM issues i WHERE i.org_id = $1 AND i.project_id = $2';
    // the project's own timeline entries (status updates); its issues' entries go with the issues
    await this.sql.run('DELETE FROM activity_events WHERE org_id = $1 AND project_id = $2 AND issue_id IS NULL', [orgId, id], m);
    await this.sql.run('UPDATE goals SET project_id = NULL WHERE org_id = $1 AND project_id = $2', [orgId, id], m);
    await this.sql.run('UPDATE kpis SET project_id = NULL WHERE org_id = $1 AND project_id = $2', [orgId, id], m);
    await this.sql.run('UPDATE initiatives SET project_id = NULL WHERE org_id = $1 AND project_id = $2', [orgId, id], m);
    await this.sql.run(
      'UPDATE issues SET milestone_id = NULL WHERE org_id = $1 AND milestone_id IN (SELECT ms.id FROM milestones ms WHERE ms.org_id = $1 AND ms.project_id = $2)',
      [orgId, id],
      m,
    );
    // issues of the project go in one cascaded statement: only the ones outside it need clearing
    await this.sql.run(`UPDATE issues SET parent_id = NULL WHERE org_id = $1 AND project_id <> $2 AND parent_id IN (${inProject})`, [orgId, id], m);
    await this.sql.run(
      `UPDATE issues SET recurrence_source_id = NULL WHERE org_id = $1 AND project_id <> $2 AND recurrence_source_id IN (${inProject})`,
      [orgId, id],
      m,
    );
    await this.sql.run(
      'UPDATE issue_dependencies SET release_column_id = NULL WHERE org_id = $1 AND release_column_id IN (SELECT bc.id FROM board_columns bc WHERE bc.org_id = $1 AND bc.project_id = $2)',
      [orgId, id],
      m,
    );
    await this.sql.run(`UPDATE kpi_snapshots SET attributed_to_issue_id = NULL WHERE org_id = $1 AND attributed_to_issue_id IN (${inProject})`, [orgId, id], m);
    await this.sql.run(
      `UPDATE runner_leases SET execution_id = NULL WHERE org_id = $1
          AND execution_id IN (SELECT e.id FROM agent_executions e WHERE e.org_id = $1 AND e.issue_id IN (${inProject}))`,
      [orgId, id],
      m,
    );
    await this.sql.run(
      `UPDATE comments c SET reply_to_comment_id = NULL FROM comments t
        WHERE c.org_id = $1 AND t.org_id = $1 AND t.id = c.reply_to_comment_id AND t.issue_id <> c.issue_id AND t.issue_id IN (${inProject})`,
      [orgId, id],
      m,
    );
    return (await this.sql.run('DELETE FROM projects WHERE org_id = $1 AND id = $2', [orgId, id], m)) > 0;
  }
}
