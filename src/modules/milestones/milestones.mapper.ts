import type { EntityManager } from 'typeorm';
import { Errors } from '../../common/errors/domain-error';
import type { MilestoneResponse } from './milestones.response';

const SELECT = `SELECT m.id, m.project_id, m.name, m.description, to_char(m.target_date, 'YYYY-MM-DD') AS target_date, m.status,
    m.created_at, m.updated_at,
    (SELECT count(*)::int FROM issues i WHERE i.org_id = m.org_id AND i.milestone_id = m.id AND i.archived_at IS NULL) AS issue_count
  FROM milestones m`;

export const toMilestoneResponse = (r: Record<string, any>): MilestoneResponse => ({
  id: r.id,
  project_id: r.project_id,
  name: r.name,
  description: r.description ?? null,
  target_date: r.target_date ?? null,
  status: r.status,
  issue_count: r.issue_count ?? 0,
  created_at: new Date(r.created_at).toISOString(),
  updated_at: new Date(r.updated_at).toISOString(),
});

/** Milestones of one project: open ones first by target date, then by name. */
export async function readMilestones(m: EntityManager, orgId: string, projectId: string): Promise<MilestoneResponse[]> {
  const rows: Array<Record<string, any>> = await m.query(
    `${SELECT} WHERE m.org_id = $1 AND m.project_id = $2 ORDER BY m.target_date ASC NULLS LAST, lower(m.name), m.id`,
    [orgId, projectId],
  );
  return rows.map(toMilestoneResponse);
}

export async function readMilestone(m: EntityManager, orgId: string, id: string): Promise<MilestoneResponse> {
  const rows: Array<Record<string, any>> = await m.query(`${SELECT} WHERE m.org_id = $1 AND m.id = $2`, [orgId, id]);
  if (!rows[0]) throw Errors.notFound('Milestone not found');
  return toMilestoneResponse(rows[0]);
}

/** Project of a milestone of the organization, or null. */
export async function milestoneProject(m: EntityManager, orgId: string, id: string): Promise<string | null> {
  const rows: Array<{ project_id: string }> = await m.query('SELECT project_id FROM milestones WHERE org_id = $1 AND id = $2', [orgId, id]);
  return rows[0]?.project_id ?? null;
}
