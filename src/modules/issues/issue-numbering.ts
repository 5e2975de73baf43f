import type { EntityManager } from 'typeorm';

/**
 * Next issue number, inside the creating transaction: one sequence per project, one shared by the
 * organization's projectless issues. The counter row stays locked until commit, so numbers are
 * gap-free (a rollback returns the number) and duplicate-free under concurrent creates.
 */
export async function nextIssueNumber(m: EntityManager, orgId: string, projectId: string | null): Promise<number> {
  const res: unknown[] = projectId
    ? await m.query('UPDATE projects SET issue_seq = issue_seq + 1 WHERE org_id = $1 AND id = $2 RETURNING issue_seq AS n', [orgId, projectId])
    : await m.query('UPDATE organizations SET issue_seq = issue_seq + 1 WHERE id = $1 RETURNING issue_seq AS n', [orgId]);
  // TypeORM answers an UPDATE … RETURNING with [rows, affectedCount].
  const rows = (Array.isArray(res[0]) ? res[0] : res) as Array<{ n: number }>;
  if (!rows.length) throw new Error(`issue counter row missing for ${projectId ?? orgId}`);
  return rows[0].n;
}
