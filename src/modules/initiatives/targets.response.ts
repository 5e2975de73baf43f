import type { LinkedIssueProjection, LinkedMilestoneProjection } from './initiatives.response';

export class TargetScopeResponse {
  /** `initiative`: the initiative's projects (followed live); `projects`: the listed projects */
  type: 'initiative' | 'projects';
  /** The effective scope projects the caller can read */
  project_ids: string[];
}

/**
 * Stateful progress. Gate targets count items: `completed` of `needed` (e.g. "3/5 complete"),
 * never a pace. Progress targets report `current_value` against `target_value`.
 */
export class TargetProgressResponse {
  /** Gate: completed items (= current_value); null for progress targets */
  completed: number | null;
  /** Gate: items needed (= target_value); null for progress targets */
  needed: number | null;
  /** Progress: share of the way from baseline (or 0) to target, 0..100; null when not computable */
  percent: number | null;
  /** Status completed, or the gate is met, or the progress value reached the target */
  complete: boolean;
  /** e.g. "3/5 retailers complete" (gate) or "40 of 100 customers" (progress) */
  label: string;
}

export class TargetResponse {
  id: string;
  initiative_id: string;
  title: string;
  description: string | null;
  /** `progress` (an output moving toward a value) or `gate` (a hard prerequisite: completed of needed) */
  mode: 'progress' | 'gate';
  /** `active` (default), `completed` or `cancelled` */
  status: 'active' | 'completed' | 'cancelled';
  /** `count`, `percentage`, `currency`, `duration`, `ratio` or `custom` */
  unit: string;
  unit_label: string | null;
  baseline_value: number | null;
  /** Gate: completed items (whole, ≥ 0) */
  current_value: number | null;
  /** Gate: items needed (whole, ≥ 0) */
  target_value: number | null;
  /** `increase`, `decrease` or `maintain` */
  target_direction: 'increase' | 'decrease' | 'maintain';
  /** YYYY-MM-DD or null */
  target_date: string | null;
  /** Due-soon window in days before target_date (0..365, default 7) */
  due_soon_days: number;
  /** Today against target_date: `complete`, `cancelled`, `no_date`, `overdue`, `due_soon` (gates inside their window) or `on_track` */
  due_state: 'complete' | 'cancelled' | 'no_date' | 'overdue' | 'due_soon' | 'on_track';
  progress: TargetProgressResponse;
  scope: TargetScopeResponse;
  /** Linked issue ids the caller can read */
  issueIds: string[];
  /** Linked milestone ids the caller can read */
  milestoneIds: string[];
  /** Same as issueIds */
  issue_ids: string[];
  /** Same as milestoneIds */
  milestone_ids: string[];
  created_by_id: string | null;
  created_at: string;
  updated_at: string;
}

export class TargetEnvelope {
  target: TargetResponse;
}

export class TargetListResponse {
  /** Only targets whose typed scope the caller can read */
  targets: TargetResponse[];
}

export class TargetIssueLinkResponse {
  target_id: string;
  initiative_id: string;
  /** Canonical issue UUID */
  issue_id: string;
  created_by_id: string | null;
  created_at: string;
  issue: LinkedIssueProjection;
}

export class TargetIssueEnvelope {
  issue: TargetIssueLinkResponse;
}

export class TargetIssueListResponse {
  issues: TargetIssueLinkResponse[];
}

export class TargetMilestoneLinkResponse {
  target_id: string;
  initiative_id: string;
  milestone_id: string;
  created_by_id: string | null;
  created_at: string;
  milestone: LinkedMilestoneProjection;
}

export class TargetMilestoneEnvelope {
  milestone: TargetMilestoneLinkResponse;
}

export class TargetMilestoneListResponse {
  milestones: TargetMilestoneLinkResponse[];
}
