import type { EntityManager } from 'typeorm';
import { Errors } from '../../common/errors/domain-error';
import { BoardColumnEntity } from './entities/board-column.entity';
import { BoardViewEntity } from './entities/board-view.entity';
import { toBoardColumnResponse, toBoardViewResponse } from './projects.mapper';
import type { BoardColumnListResponse, BoardViewResponse } from './projects.response';
import { SYSTEM_STATUS_CANCELLED } from './project.rules';

/**
 * Serializes board changes of one project (column positions, keys, views): every board write
 * locks the project row first (NO KEY UPDATE: rows referencing the project, such as new issues,
 * are not blocked). 404 when the project disappeared since the access check.
 */
export async function lockProject(m: EntityManager, orgId: string, projectId: string): Promise<void> {
  const rows: unknown[] = await m.query('SELECT 1 FROM projects WHERE org_id = $1 AND id = $2 FOR NO KEY UPDATE', [orgId, projectId]);
  if (!rows.length) throw Errors.notFound('Project not found');
}

export function findColumns(m: EntityManager, orgId: string, projectId: string): Promise<BoardColumnEntity[]> {
  return m.find(BoardColumnEntity, { where: { orgId, projectId }, order: { position: 'ASC', id: 'ASC' } });
}

export async function findColumn(m: EntityManager, orgId: string, projectId: string, columnId: string): Promise<BoardColumnEntity> {
  const column = await m.findOne(BoardColumnEntity, { where: { orgId, projectId, id: columnId } });
  if (!column) throw Errors.notFound('Board column not found');
  return column;
}

/** Issues of the project per status (archived ones included: they still carry the status). */
export async function issueCountsByStatus(m: EntityManager, orgId: string, projectId: string): Promise<Map<string, number>> {
  const rows: Array<{ status: string; n: number }> = await m.query(
    'SELECT status, count(*)::int AS n FROM issues WHERE org_id = $1 AND project_id = $2 GROUP BY status',
    [orgId, projectId],
  );
  return new Map(rows.map((r) => [r.status, r.n]));
}

/** `{ columns, accepted_statuses }` of one project. */
export async function readBoardColumns(m: EntityManager, orgId: string, projectId: string): Promise<BoardColumnListResponse> {
  const columns = await findColumns(m, orgId, projectId);
  const counts = await issueCountsByStatus(m, orgId, projectId);
  return {
    columns: columns.map((c) => toBoardColumnResponse(c, counts.get(c.key) ?? 0)),
    accepted_statuses: [...columns.map((c) => c.key), SYSTEM_STATUS_CANCELLED],
  };
}

/** Board views of one project (default first), or only `viewId` when given. */
export async function readBoardViews(m: EntityManager, orgId: string, projectId: string, viewId?: string): Promise<BoardViewResponse[]> {
  const views = await m.find(BoardViewEntity, {
    where: viewId ? { orgId, projectId, id: viewId } : { orgId, projectId },
    order: { isDefault: 'DESC', createdAt: 'ASC', id: 'ASC' },
  });
  if (!views.length) return [];
  const links: Array<{ view_id: string; column_id: string }> = await m.query(
    `SELECT vc.view_id, vc.column_id FROM board_view_columns vc
       JOIN board_columns c ON c.org_id = vc.org_id AND c.id = vc.column_id
      WHERE vc.org_id = $1 AND vc.view_id = ANY($2::uuid[])
      ORDER BY vc.position, c.position, vc.column_id`,
    [orgId, views.map((v) => v.id)],
  );
  const byView = new Map<string, string[]>(views.map((v) => [v.id, []]));
  for (const l of links) byView.get(l.view_id)?.push(l.column_id);
  return views.map((v) => toBoardViewResponse(v, byView.get(v.id) ?? []));
}

export async function readBoardView(m: EntityManager, orgId: string, projectId: string, viewId: string): Promise<BoardViewResponse> {
  const [view] = await readBoardViews(m, orgId, projectId, viewId);
  if (!view) throw Errors.notFound('Board view not found');
  return view;
}

/** Rewrites the column list of a view: positions 0..n-1 in the given order. */
export async function setViewColumns(m: EntityManager, orgId: string, viewId: string, columnIds: string[]): Promise<void> {
  await m.query('DELETE FROM board_view_columns WHERE org_id = $1 AND view_id = $2', [orgId, viewId]);
  if (!columnIds.length) return;
  await m.query(
    `INSERT INTO board_view_columns (org_id, view_id, column_id, position)
     SELECT $1, $2, c.id, c.ord - 1 FROM unnest($3::uuid[]) WITH ORDINALITY AS c(id, ord)`,
    [orgId, viewId, columnIds],
  );
}

/** Column ids that are not columns of the project (the rest are). */
export async function foreignColumnIds(m: EntityManager, orgId: string, projectId: string, columnIds: string[]): Promise<string[]> {
  const rows: Array<{ id: string }> = await m.query('SELECT id FROM board_columns WHERE org_id = $1 AND project_id = $2 AND id = ANY($3::uuid[])', [
    orgId,
    projectId,
    columnIds,
  ]);
  const own = new Set(rows.map((r) => r.id));
  return columnIds.filter((id) => !own.has(id));
}
