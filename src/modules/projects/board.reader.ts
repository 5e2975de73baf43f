import type { Tx } from '../../database/sql.service';
import { Errors } from '../../common/errors/domain-error';
import type { BoardRepository } from './board.repository';
import type { BoardColumnEntity } from './entities/board-column.entity';
import { toBoardColumnResponse, toBoardViewResponse } from './projects.mapper';
import type { BoardColumnListResponse, BoardColumnResponse, BoardViewResponse } from './projects.response';
import { SYSTEM_STATUS_CANCELLED } from './project.rules';

/**
 * Serializes board changes of one project (column positions, keys, views): every board write
 * locks the project row first. 404 when the project disappeared since the access check.
 */
export async function lockProject(board: BoardRepository, m: Tx, orgId: string, projectId: string): Promise<void> {
  if (!(await board.lockProject(orgId, projectId, m))) throw Errors.notFound('Project not found');
}

/** Column `columnId` of the project; 404 when there is none. */
export async function findColumn(board: BoardRepository, m: Tx, orgId: string, projectId: string, columnId: string): Promise<BoardColumnEntity> {
  const column = await board.column(orgId, projectId, columnId, m);
  if (!column) throw Errors.notFound('Board column not found');
  return column;
}

/** The responses of some columns of one project, with their issue and release reference counts. */
export async function boardColumnResponses(
  board: BoardRepository,
  m: Tx,
  orgId: string,
  projectId: string,
  columns: BoardColumnEntity[],
): Promise<BoardColumnResponse[]> {
  const issues = await board.issueCountsByStatus(orgId, projectId, m);
  const releases = await board.releaseReferenceCounts(orgId, projectId, m);
  return columns.map((c) => toBoardColumnResponse(c, issues.get(c.key) ?? 0, releases.get(c.id) ?? 0));
}

/** `{ columns, accepted_statuses }` of one project. */
export async function readBoardColumns(board: BoardRepository, m: Tx, orgId: string, projectId: string): Promise<BoardColumnListResponse> {
  const columns = await board.columns(orgId, projectId, m);
  return {
    columns: await boardColumnResponses(board, m, orgId, projectId, columns),
    accepted_statuses: [...columns.map((c) => c.key), SYSTEM_STATUS_CANCELLED],
  };
}

/** Board views of one project (default first), or only `viewId` when given. */
export async function readBoardViews(board: BoardRepository, m: Tx, orgId: string, projectId: string, viewId?: string): Promise<BoardViewResponse[]> {
  const views = await board.views(orgId, projectId, viewId, m);
  if (!views.length) return [];
  const links = await board.viewColumns(
    orgId,
    views.map((v) => v.id),
    m,
  );
  const byView = new Map<string, string[]>(views.map((v) => [v.id, []]));
  for (const l of links) byView.get(l.view_id)?.push(l.column_id);
  return views.map((v) => toBoardViewResponse(v, byView.get(v.id) ?? []));
}

export async function readBoardView(board: BoardRepository, m: Tx, orgId: string, projectId: string, viewId: string): Promise<BoardViewResponse> {
  const [view] = await readBoardViews(board, m, orgId, projectId, viewId);
  if (!view) throw Errors.notFound('Board view not found');
  return view;
}

/** Column ids that are not columns of the project (the rest are). */
export async function foreignColumnIds(board: BoardRepository, m: Tx, orgId: string, projectId: string, columnIds: string[]): Promise<string[]> {
  const own = await board.ownColumnIds(orgId, projectId, columnIds, m);
  return columnIds.filter((id) => !own.has(id));
}
