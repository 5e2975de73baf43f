import { Injectable } from '@nestjs/common';
import { Sql, type Tx } from '../../database/sql.service';
import type { CustomViewFilters, CustomViewSort } from './custom-view.rules';
import type { CustomViewEntity } from './entities/custom-view.entity';

/** What the issue list applies of a custom view. */
export interface CustomViewRef {
  project_id: string;
  filters: CustomViewFilters | null;
  sort: CustomViewSort | null;
}

/** The editable fields of a custom view. */
export interface CustomViewPatch {
  name?: string;
  filters?: Record<string, unknown>;
  sort?: Record<string, unknown> | null;
  displayMode?: string;
  color?: string | null;
  icon?: string | null;
}

/** The columns of a custom view, as `CustomViewEntity`. */
const ENTITY_COLUMNS = `org_id AS "orgId", id, project_id AS "projectId", name, filters, sort, display_mode AS "displayMode", color, icon,
  is_default AS "isDefault", created_by_member_id AS "createdByMemberId", created_at AS "createdAt", updated_at AS "updatedAt"`;

/** A jsonb parameter: JSON text, or SQL NULL for null. */
const json = (v: unknown): string | null => (v === null || v === undefined ? null : JSON.stringify(v));

/** Fields of a patch, their columns and how their values are sent, in SET order. */
const PATCH_COLUMNS: ReadonlyArray<[keyof CustomViewPatch, string, (v: unknown) => unknown]> = [
  ['name', 'name', (v) => v],
  ['filters', 'filters = $?::jsonb', json],
  ['sort', 'sort = $?::jsonb', json],
  ['displayMode', 'display_mode', (v) => v],
  ['color', 'color', (v) => v],
  ['icon', 'icon', (v) => v],
];

/** Saved issue-list views of a project. */
@Injectable()
export class CustomViewsRepository {
  constructor(private readonly sql: Sql) {}

  /** The project's views: default views first (in creation order), then the others oldest first. */
  list(orgId: string, projectId: string): Promise<CustomViewEntity[]> {
    return this.sql.rows<CustomViewEntity>(
      `SELECT ${ENTITY_COLUMNS} FROM custom_views WHERE org_id = $1 AND project_id = $2 ORDER BY is_default DESC, created_at ASC, id ASC`,
      [orgId, projectId],
    );
  }

  /** The project, filters and sort of custom view `id` of the organization (any project), or undefined. */
  findInOrg(orgId: string, id: string, m?: Tx): Promise<CustomViewRef | undefined> {
    return this.sql.row<CustomViewRef>('SELECT project_id, filters, sort FROM custom_views WHERE org_id = $1 AND id = $2', [orgId, id], m);
  }

  /** View `id` of the project, or undefined. */
  find(orgId: string, projectId: string, id: string): Promise<CustomViewEntity | undefined> {
    return this.sql.row<CustomViewEntity>(`SELECT ${ENTITY_COLUMNS} FROM custom_views WHERE org_id = $1 AND project_id = $2 AND id = $3`, [
      orgId,
      projectId,
      id,
    ]);
  }

  /** Stores a new view. */
  async insert(v: CustomViewEntity, m?: Tx): Promise<void> {
    await this.sql.run(
      `INSERT INTO custom_views (org_id, id, project_id, name, filters, sort, display_mode, color, icon, is_default, created_by_member_id, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7, $8, $9, $10, $11, $12, $13)`,
      [
        v.orgId,
        v.id,
        v.projectId,
        v.name,
        json(v.filters),
        json(v.sort),
        v.displayMode,
        v.color,
        v.icon,
        v.isDefault,
        v.createdByMemberId,
        v.createdAt,
        v.updatedAt,
      ],
      m,
    );
  }

  /** Changes the given fields of view `id`. */
  async update(orgId: string, projectId: string, id: string, patch: CustomViewPatch, updatedAt: Date): Promise<void> {
    const set: string[] = [];
    const values: unknown[] = [orgId, projectId, id];
    for (const [field, column, send] of PATCH_COLUMNS) {
      if (patch[field] === undefined) continue;
      values.push(send(patch[field]));
      set.push(column.includes('$?') ? column.replace('$?', `$${values.length}`) : `${column} = $${values.length}`);
    }
    values.push(updatedAt);
    set.push(`updated_at = $${values.length}`);
    await this.sql.run(`UPDATE custom_views SET ${set.join(', ')} WHERE org_id = $1 AND project_id = $2 AND id = $3`, values);
  }

  /** Deletes view `id` of the project unless it is a default view. */
  async delete(orgId: string, projectId: string, id: string): Promise<void> {
    await this.sql.run('DELETE FROM custom_views WHERE org_id = $1 AND project_id = $2 AND id = $3 AND is_default = false', [orgId, projectId, id]);
  }
}
