import type { PlanName } from '../../config/config';

export type PlanResource = 'humans' | 'agents' | 'activeProjects' | 'activeIssues';
export const PLAN_RESOURCES: readonly PlanResource[] = ['humans', 'agents', 'activeProjects', 'activeIssues'];

/** Limits per plan; null means unlimited. */
export const PLAN_LIMITS: Record<PlanName, Record<PlanResource, number | null>> = {
  unlimited: { humans: null, agents: null, activeProjects: null, activeIssues: null },
  free: { humans: 5, agents: 3, activeProjects: 3, activeIssues: 250 },
};

/** How each resource is counted: active (not removed) humans and agents, active projects, open non-archived issues. */
export const USAGE_SQL: Record<PlanResource, string> = {
  humans: `SELECT count(*)::int AS n FROM members WHERE org_id = $1 AND type = 'human' AND removed_at IS NULL`,
  agents: `SELECT count(*)::int AS n FROM members WHERE org_id = $1 AND type = 'agent' AND removed_at IS NULL`,
  activeProjects: `SELECT count(*)::int AS n FROM projects WHERE org_id = $1 AND status = 'active'`,
  activeIssues: `SELECT count(*)::int AS n FROM issues WHERE org_id = $1 AND archived_at IS NULL AND status NOT IN ('done', 'cancelled')`,
};
