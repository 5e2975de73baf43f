import type { Tx } from '../../database/sql.service';
import { Errors } from '../../common/errors/domain-error';
import type { SubtasksRepository } from './subtasks.repository';

/** The child `subtaskId` of `parentId` (same organization), or 404. */
export async function assertChildOf(subtasks: SubtasksRepository, orgId: string, parentId: string, subtaskId: string, m?: Tx): Promise<void> {
  if (!(await subtasks.isChildOf(orgId, parentId, subtaskId, m))) throw Errors.notFound('Subtask not found');
}
