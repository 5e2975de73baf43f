import type { MilestoneRow } from './milestones.repository';
import type { MilestoneResponse } from './milestones.response';

export const toMilestoneResponse = (r: MilestoneRow): MilestoneResponse => ({
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
