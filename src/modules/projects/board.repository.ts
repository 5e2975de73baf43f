import { Injectable } from '@nestjs/common';
import { Sql, type Tx } from '../../database/sql.service';
import type { BoardColumnEntity } from './entities/board-column.entity';
import type { BoardViewEntity } from './entities/board-view.entity';
import type { RecommendationRole } from './project.rules';

/** A column of a board view, in the view's order. */
export interface ViewColumnRow {
  view_id: string;
  column_id: string;
}

/** The columns of a board column, as `BoardColumnEntity`. */
const COLUMN_COLUMNS = `org_id AS "orgId", id, project_id AS "projectId", key, label, description, color, position, recommendation_role AS "recommendationRole", created_at AS "createdAt", updated_at AS "updatedAt"`;

/** The columns of a board view, as `BoardViewEntity`. */
const VIEW_COLUMNS = `org_id AS "orgId", id, project_id AS "projectId", name, is_default AS "isDefault", created_at AS "createdAt", updated_at AS "updatedAt"`;

/** The board of a project: its columns (the project's issue statuses) and board views. */
@Injectable()
export class BoardRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * Locks the project row for the rest of the transaction (NO KEY UPDATE: rows referencing the
   * project, such as new issues, are not blocked); false when the project does not exist.
   */
  async lockProject(orgId: string, projectId: string, m: Tx): Promise<boolean> {
    return (await this.sql.rows('SELECT 1 FROM projects WHERE org_id = $1 AND id = $2 FOR NO KEY UPDATE', [orgId, projectId], m)).length > 0;
  }

  /** The project's columns in position order. */
  columns(orgId: string, projectId: string, m?: Tx): Promise<BoardColumnEntity[]> {
    return this.sql.rows<BoardColumnEntity>(
      `SELECT ${COLUMN_COLUMNS} FROM board_columns WHERE org_id = $1 AND project_id = $2 ORDER BY position ASC, id ASC`,
      [orgId, projectId],
      m,
    );
  }

  /** The column keys of a project's board, in board order (position only). */
  async columnKeys(orgId: string, projectId: string, m?: Tx): Promise<string[]> {
    return (
      await this.sql.rows<{ key: string }>('SELECT key FROM board_columns WHERE org_id = $1 AND project_id = $2 ORDER BY position', [orgId, projectId], m)
    ).map((r) => r.key);
  }

  /** The key of the first column of a project's board, or undefined when it has none. */
  async firstColumnKey(orgId: string, projectId: string, m?: Tx): Promise<string | undefined> {
    return (
      await this.sql.row<{ key: string }>(
        'SELECT key FROM board_columns WHERE org_id = $1 AND project_id = $2 ORDER BY position ASC LIMIT 1',
        [orgId, projectId],
        m,
      )
    )?.key;
  }

  /** The keys among `keys` that are a column key of some board of the organization (of the projects `projectIds` unless 'all'). */
  async knownColumnKeys(orgId: string, keys: string[], projectIds: 'all' | string[], m?: Tx): Promise<Set<string>> {
    const rows =
      projectIds === 'all'
        ? await this.sql.rows<{ key: string }>('SELECT DISTINCT key FROM board_columns WHERE org_id = $1 AND key = ANY($2::text[])', [orgId, keys], m)
        : await this.sql.rows<{ key: string }>(
            'SELECT DISTINCT key FROM board_columns WHERE org_id = $1 AND key = ANY($2::text[]) AND project_id = ANY($3::uuid[])',
            [orgId, keys, projectIds],
            m,
          );
    return new Set(rows.map((r) => r.key));
  }

  /** Column `columnId` of the project, or undefined. */
  column(orgId: string, projectId: string, columnId: string, m?: Tx): Promise<BoardColumnEntity | undefined> {
    return this.sql.row<BoardColumnEntity>(
      `SELECT ${COLUMN_COLUMNS} FROM board_columns WHERE org_id = $1 AND project_id = $2 AND id = $3`,
      [orgId, projectId, columnId],
      m,
    );
  }

  /** Of the given column ids, those that are columns of the project. */
  async ownColumnIds(orgId: string, projectId: string, columnIds: string[], m?: Tx): Promise<Set<string>> {
    const rows = await this.sql.rows<{ id: string }>(
      'SELECT id FROM board_columns WHERE org_id = $1 AND project_id = $2 AND id = ANY($3::uuid[])',
      [orgId, projectId, columnIds],
      m,
    );
    return new Set(rows.map((r) => r.id));
  }

  /** Issues of the project per status (archived ones included: they still carry the status). */
  async issueCountsByStatus(orgId: string, projectId: string, m?: Tx): Promise<Map<string, number>> {
    const rows = await this.sql.rows<{ status: string; n: number }>(
      'SELECT status, count(*)::int AS n FROM issues WHERE org_id = $1 AND project_id = $2 GROUP BY status',
      [orgId, projectId],
      m,
    );
    return new Map(rows.map((r) => [r.status, r.n]));
  }

  /**
   * Dependencies whose release point is a column of the project, per column id (what deleting a
   * column would detach; a read of the dependencies module's table, as the issue counts read issues).
   */
  async releaseReferenceCounts(orgId: string, projectId: string, m?: Tx): Promise<Map<string, number>> {
    const rows = await this.sql.rows<{ column_id: string; n: number }>(
      `SELECT d.release_column_id AS column_id, count(*)::int AS n
         FROM board_columns c JOIN issue_dependencies d ON d.org_id = c.org_id AND d.release_column_id = c.id
        WHERE c.org_id = $1 AND c.project_id = $2
        GROUP BY d.release_column_id`,
      [orgId, projectId],
      m,
    );
    return new Map(rows.map((r) => [r.column_id, r.n]));
  }

  /** How many issues of the project have status `status`. */
  async issueCountInStatus(orgId: string, projectId: string, status: string, m?: Tx): Promise<number> {
    return (
      (
        await this.sql.row<{ n: number }>(
          'SELECT count(*)::int AS n FROM issues WHERE org_id = $1 AND project_id = $2 AND status = $3',
          [orgId, projectId, status],
          m,
        )
      )?.n ?? 0
    );
  }

  /** Moves the project's issues from status `from` to `to`; answers how many moved. */
  moveIssues(orgId: string, projectId: string, from: string, to: string, m?: Tx): Promise<number> {
    return this.sql.run(
      'UPDATE issues SET status = $4, updated_at = now() WHERE org_id = $1 AND project_id = $2 AND status = $3',
      [orgId, projectId, from, to],
      m,
    );
  }

  /** Stores new columns (one statement). */
  async insertColumns(columns: BoardColumnEntity[], m?: Tx): Promise<void> {
    if (!columns.length) return;
    await this.sql.run(
      `INSERT INTO board_columns (org_id, id, project_id, key, label, description, color, position, recommendation_role, created_at, updated_at)
       SELECT c.org_id, c.id, c.project_id, c.key, c.label, c.description, c.color, c.position, c.recommendation_role, c.created_at, c.updated_at
         FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[], $9::text[], $10::timestamptz[], $11::timestamptz[])
           AS c(org_id, id, project_id, key, label, description, color, position, recommendation_role, created_at, updated_at)`,
      [
        columns.map((c) => c.orgId),
        columns.map((c) => c.id),
        columns.map((c) => c.projectId),
        columns.map((c) => c.key),
        columns.map((c) => c.label),
        columns.map((c) => c.description),
        columns.map((c) => c.color),
        columns.map((c) => c.position),
        columns.map((c) => c.recommendationRole),
        columns.map((c) => c.createdAt),
        columns.map((c) => c.updatedAt),
      ],
      m,
    );
  }

  /** Appends column `columnId` to the project's default board view(s). */
  async appendToDefaultViews(orgId: string, projectId: string, columnId: string, m?: Tx): Promise<void> {
    await this.sql.run(
      `INSERT INTO board_view_columns (org_id, view_id, column_id, position)
         SELECT v.org_id, v.id, $3, COALESCE((SELECT max(vc.position) + 1 FROM board_view_columns vc WHERE vc.org_id = v.org_id AND vc.view_id = v.id), 0)
           FROM board_views v WHERE v.org_id = $1 AND v.project_id = $2 AND v.is_default`,
      [orgId, projectId, columnId],
      m,
    );
  }

  /** Changes the label, description, color and/or recommendation role of column `columnId` (undefined keeps the value). */
  async updateColumn(
    orgId: string,
    projectId: string,
    columnId: string,
    patch: { label?: string; description?: string | null; color?: string | null; recommendationRole?: RecommendationRole | null },
    updatedAt: Date,
    m?: Tx,
  ): Promise<void> {
    const set: string[] = [];
    const values: unknown[] = [orgId, projectId, columnId];
    for (const [column, value] of [
      ['label', patch.label],
      ['description', patch.description],
      ['color', patch.color],
      ['recommendation_role', patch.recommendationRole],
      ['updated_at', updatedAt],
    ] as const) {
      if (value === undefined) continue;
      values.push(value);
      set.push(`${column} = $${values.length}`);
    }
    await this.sql.run(`UPDATE board_columns SET ${set.join(', ')} WHERE org_id = $1 AND project_id = $2 AND id = $3`, values, m);
  }

  /** Deletes column `columnId` of the project; dependencies released by it lose their release column (foreign keys to it are NO ACTION, so the references are cleared first: migration 1765660000000, docs/CITUS.md). */
  async deleteColumn(orgId: string, projectId: string, columnId: string, m: Tx): Promise<void> {
    await this.sql.run('UPDATE issue_dependencies SET release_column_id = NULL WHERE org_id = $1 AND release_column_id = $2', [orgId, columnId], m);
    await this.sql.run('DELETE FROM board_columns WHERE org_id = $1 AND project_id = $2 AND id = $3', [orgId, projectId, columnId], m);
  }

  /** Positions of the project's columns become 0..n-1 (the position constraint is checked at commit). */
  async compactColumns(orgId: string, projectId: string, m?: Tx): Promise<void> {
    await this.sql.run(
      `UPDATE board_columns c SET position = o.rn - 1
         FROM (SELECT id, row_number() OVER (ORDER BY position, id) AS rn FROM board_columns WHERE org_id = $1 AND project_id = $2) o
        WHERE c.org_id = $1 AND c.id = o.id AND c.position <> o.rn - 1`,
      [orgId, projectId],
      m,
    );
  }

  /** Puts the project's columns in the given order (one statement; the unique position constraint is deferred to commit). */
  async reorderColumns(orgId: string, projectId: string, ordered: string[], m?: Tx): Promise<void> {
    await this.sql.run(
      `UPDATE board_columns c SET position = o.ord - 1, updated_at = now()
           FROM unnest($3::uuid[]) WITH ORDINALITY AS o(id, ord)
          WHERE c.org_id = $1 AND c.project_id = $2 AND c.id = o.id AND c.position <> o.ord - 1`,
      [orgId, projectId, ordered],
      m,
    );
  }

  /** The default view's column positions follow the columns' positions. */
  async syncDefaultViewPositions(orgId: string, projectId: string, m?: Tx): Promise<void> {
    await this.sql.run(
      `UPDATE board_view_columns vc SET position = c.position
           FROM board_columns c, board_views v
          WHERE vc.org_id = $1 AND c.org_id = $1 AND v.org_id = $1
            AND v.project_id = $2 AND v.is_default AND vc.view_id = v.id AND c.id = vc.column_id`,
      [orgId, projectId],
      m,
    );
  }

  /** Board views of the project (default first, then oldest first), or only `viewId` when given. */
  views(orgId: string, projectId: string, viewId?: string, m?: Tx): Promise<BoardViewEntity[]> {
    return viewId
      ? this.sql.rows<BoardViewEntity>(
          `SELECT ${VIEW_COLUMNS} FROM board_views WHERE org_id = $1 AND project_id = $2 AND id = $3 ORDER BY is_default DESC, created_at ASC, id ASC`,
          [orgId, projectId, viewId],
          m,
        )
      : this.sql.rows<BoardViewEntity>(
          `SELECT ${VIEW_COLUMNS} FROM board_views WHERE org_id = $1 AND project_id = $2 ORDER BY is_default DESC, created_at ASC, id ASC`,
          [orgId, projectId],
          m,
        );
  }

  /** Board view `viewId` of the project, or undefined. */
  async view(orgId: string, projectId: string, viewId: string, m?: Tx): Promise<BoardViewEntity | undefined> {
    return (await this.views(orgId, projectId, viewId, m))[0];
  }

  /** The columns of the given views, each view's in its order. */
  viewColumns(orgId: string, viewIds: string[], m?: Tx): Promise<ViewColumnRow[]> {
    return this.sql.rows<ViewColumnRow>(
      `SELECT vc.view_id, vc.column_id FROM board_view_columns vc
       JOIN board_columns c ON c.org_id = vc.org_id AND c.id = vc.column_id
      WHERE vc.org_id = $1 AND vc.view_id = ANY($2::uuid[])
      ORDER BY vc.position, c.position, vc.column_id`,
      [orgId, viewIds],
      m,
    );
  }

  /** Stores a new board view. */
  async insertView(view: BoardViewEntity, m?: Tx): Promise<void> {
    await this.sql.run(
      'INSERT INTO board_views (org_id, id, project_id, name, is_default, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
      [view.orgId, view.id, view.projectId, view.name, view.isDefault, view.createdAt, view.updatedAt],
      m,
    );
  }

  /** Renames view `viewId` (undefined keeps the name) and sets its updated_at. */
  async updateView(orgId: string, viewId: string, name: string | undefined, updatedAt: Date, m?: Tx): Promise<void> {
    await this.sql.run(
      'UPDATE board_views SET name = COALESCE($3, name), updated_at = $4 WHERE org_id = $1 AND id = $2',
      [orgId, viewId, name ?? null, updatedAt],
      m,
    );
  }

  /** Deletes view `viewId` of the project unless it is the default view. */
  async deleteView(orgId: string, projectId: string, viewId: string): Promise<void> {
    await this.sql.run('DELETE FROM board_views WHERE org_id = $1 AND project_id = $2 AND id = $3 AND is_default = false', [orgId, projectId, viewId]);
  }

  /** Rewrites the column list of a view: positions 0..n-1 in the given order. */
  async setViewColumns(orgId: string, viewId: string, columnIds: string[], m?: Tx): Promise<void> {
    await this.sql.run('DELETE FROM board_view_columns WHERE org_id = $1 AND view_id = $2', [orgId, viewId], m);
    if (!columnIds.length) return;
    await this.sql.run(
      `INSERT INTO board_view_columns (org_id, view_id, column_id, position)
     SELECT $1, $2, c.id, c.ord - 1 FROM unnest($3::uuid[]) WITH ORDINALITY AS c(id, ord)`,
      [orgId, viewId, columnIds],
      m,
    );
  }
}
