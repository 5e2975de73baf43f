import type { PlanName } from '../../config/config';

export type PlanResource = 'humans' | 'agents' | 'activeProjects' | 'activeIssues';
export const PLAN_RESOURCES: readonly PlanResource[] = ['humans', 'agents', 'activeProjects', 'activeIssues'];

/** Limits per plan; null means unlimited. */
export const PLAN_LIMITS: Record<PlanName, Record<PlanResource, number | null>> = {
  unlimited: { humans: null, agents: null, activeProjects: null, activeIssues: null },
  free: { humans: 5, agents: 3, activeProjects: 3, activeIssues: 250 },
};
