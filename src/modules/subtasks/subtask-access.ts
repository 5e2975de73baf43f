import type { EntityManager } from 'typeorm';
import { Errors } from '../../common/errors/domain-error';

/** The child `subtaskId` of `parentId` (same organization), or 404. */
export async function assertChildOf(m: EntityManager, orgId: string, parentId: string, subtaskId: string): Promise<void> {
  const rows: unknown[] = await m.query('SELECT 1 FROM issues WHERE org_id = $1 AND id = $2 AND parent_id = $3', [orgId, subtaskId, parentId]);
  if (!rows.length) throw Errors.notFound('Subtask not found');
}
