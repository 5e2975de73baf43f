import type { EntityManager } from 'typeorm';
import type { IssueLabelResponse } from './issue-labels.response';

/** Labels of one issue in the order they were added. */
export async function readIssueLabels(m: EntityManager, orgId: string, issueId: string): Promise<IssueLabelResponse[]> {
  const rows: Array<Record<string, any>> = await m.query(
    `SELECT l.id, l.name, l.color, l.description FROM issue_labels il
       JOIN labels l ON l.org_id = il.org_id AND l.id = il.label_id
      WHERE il.org_id = $1 AND il.issue_id = $2 ORDER BY il.created_at, l.id`,
    [orgId, issueId],
  );
  return rows.map((r) => ({ id: r.id, name: r.name, color: r.color ?? null, description: r.description ?? null }));
}
