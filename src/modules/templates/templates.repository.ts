import { Injectable } from '@nestjs/common';
import { Sql, type Tx } from '../../database/sql.service';

/** A stored issue template. */
export interface TemplateRow {
  id: string;
  project_id: string | null;
  name: string;
  content: string;
  created_by_member_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/** What a list may show: organization-wide templates, and templates of which projects. */
export interface TemplateScope {
  orgWide: boolean;
  projects: 'all' | string[];
}

const COLUMNS = 'id, project_id, name, content, created_by_member_id, created_at, updated_at';
const SCOPE = `org_id = $1 AND ((project_id IS NULL AND $2::boolean) OR (project_id IS NOT NULL AND ($3::boolean OR project_id = ANY($4::uuid[]))))`;

/** Issue templates (table `issue_templates`). */
@Injectable()
export class TemplatesRepository {
  constructor(private readonly sql: Sql) {}

  find(orgId: string, id: string, m?: Tx): Promise<TemplateRow | undefined> {
    return this.sql.row<TemplateRow>(`SELECT ${COLUMNS} FROM issue_templates WHERE org_id = $1 AND id = $2`, [orgId, id], m);
  }

  /** One page of the templates in `scope`, by name (case-insensitive), then id; with the total. */
  async page(orgId: string, scope: TemplateScope, limit: number, offset: number): Promise<{ rows: TemplateRow[]; total: number }> {
    const params = [orgId, scope.orgWide, scope.projects === 'all', scope.projects === 'all' ? [] : scope.projects];
    const [rows, count] = await Promise.all([
      this.sql.rows<TemplateRow>(`SELECT ${COLUMNS} FROM issue_templates WHERE ${SCOPE} ORDER BY lower(name), id LIMIT $5 OFFSET $6`, [
        ...params,
        limit,
        offset,
      ]),
      this.sql.row<{ n: number }>(`SELECT count(*)::int AS n FROM issue_templates WHERE ${SCOPE}`, params),
    ]);
    return { rows, total: count!.n };
  }

  async insert(orgId: string, t: TemplateRow, m?: Tx): Promise<void> {
    await this.sql.run(
      `INSERT INTO issue_templates (org_id, id, project_id, name, content, created_by_member_id, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [orgId, t.id, t.project_id, t.name, t.content, t.created_by_member_id, t.created_at, t.updated_at],
      m,
    );
  }

  /** Writes name, content and updated_at; answers the rows changed (0 = gone meanwhile). */
  update(orgId: string, t: TemplateRow, m?: Tx): Promise<number> {
    return this.sql.run(
      'UPDATE issue_templates SET name = $3, content = $4, updated_at = $5 WHERE org_id = $1 AND id = $2',
      [orgId, t.id, t.name, t.content, t.updated_at],
      m,
    );
  }

  delete(orgId: string, id: string, m?: Tx): Promise<number> {
    return this.sql.run('DELETE FROM issue_templates WHERE org_id = $1 AND id = $2', [orgId, id], m);
  }
}
