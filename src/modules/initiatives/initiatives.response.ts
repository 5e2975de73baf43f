export class InitiativeResponse {
  id: string;
  /** Trimmed title (1..500 characters) */
  title: string;
  /** Legacy name, always equal to title */
  name: string;
  description: string | null;
  goal_id: string | null;
  /** Owner member id */
  owner_id: string | null;
  /** `proposed`, `active`, `completed`, `paused` or `cancelled` */
  status: 'proposed' | 'active' | 'completed' | 'paused' | 'cancelled';
  /** YYYY-MM-DD or null */
  start_date: string | null;
  /** YYYY-MM-DD or null */
  target_date: string | null;
  /** Primary project binding: the initiative follows this project's access; null = organization-level or portfolio */
  project_id: string | null;
  /** Projects linked through `/projects`, only those the caller can read */
  project_ids: string[];
  created_by_id: string | null;
  created_at: string;
  updated_at: string;
}

export class KpiSummary {
  id: string;
  name: string;
  goal_id: string | null;
  project_id: string | null;
}

export class KpiImpactResponse {
  /** Relationship id (DELETE `.../kpi-impacts/{id}`) */
  id: string;
  initiative_id: string;
  kpi_id: string;
  /** Free text, at most 2000 characters, e.g. "+100 signups per month" */
  expected_impact: string | null;
  created_by_id: string | null;
  created_at: string;
  kpi: KpiSummary;
}

export class InitiativeDetailResponse extends InitiativeResponse {
  /** Links to KPIs the caller can read; unreadable KPI relationships are omitted */
  kpi_impacts: KpiImpactResponse[];
}

export class InitiativeEnvelope {
  initiative: InitiativeDetailResponse;
}

export class InitiativeListResponse {
  /** Legacy shape; `shape=envelope` (or `response_shape=cli`) returns `{ resource, items, total, limit, offset, nextOffset, truncated, hint }` */
  initiatives: InitiativeResponse[];
  total: number;
  limit: number;
  offset: number;
}

export class SuccessResponse {
  success: boolean;
}

export class KpiImpactEnvelope {
  kpi_impact: KpiImpactResponse;
}

export class KpiImpactListResponse {
  kpi_impacts: KpiImpactResponse[];
}

/** The linked issue (readable by the caller). */
export class LinkedIssueProjection {
  id: string;
  number: number;
  /** `<PROJECT_KEY>-<number>`; null for a projectless issue */
  identifier: string | null;
  title: string;
  status: string;
  priority: number;
  project_id: string | null;
  milestone_id: string | null;
  assignee_id: string | null;
  due_date: string | null;
  archived_at: string | null;
  updated_at: string;
}

export class InitiativeIssueLinkResponse {
  initiative_id: string;
  /** Canonical issue UUID (whatever reference form was sent) */
  issue_id: string;
  created_by_id: string | null;
  /** When the link was made */
  created_at: string;
  /** Present on POST and with `?details=1` */
  issue?: LinkedIssueProjection;
}

export class InitiativeIssueEnvelope {
  issue: InitiativeIssueLinkResponse;
}

export class InitiativeIssueListResponse {
  /** Only links to issues the caller can read (readable projects; projectless issues for non-guests) */
  issues: InitiativeIssueLinkResponse[];
}

export class LinkedMilestoneProjection {
  id: string;
  name: string;
  project_id: string;
  /** `planned`, `active`, `completed` or `cancelled` */
  status: string;
  target_date: string | null;
}

export class InitiativeMilestoneLinkResponse {
  initiative_id: string;
  milestone_id: string;
  created_by_id: string | null;
  created_at: string;
  milestone: LinkedMilestoneProjection;
}

export class InitiativeMilestoneEnvelope {
  milestone: InitiativeMilestoneLinkResponse;
}

export class InitiativeMilestoneListResponse {
  /** Only links whose milestone project the caller can read */
  milestones: InitiativeMilestoneLinkResponse[];
}

export class IssueInitiativeResponse {
  id: string;
  title: string;
  name: string;
  status: string;
  goal_id: string | null;
  project_id: string | null;
  /** When this issue was linked to the initiative */
  linked_at: string;
}

export class IssueInitiativeEnvelope {
  initiative: IssueInitiativeResponse;
}

export class IssueInitiativeListResponse {
  /** Initiatives this issue is directly linked to, only those the caller can read */
  initiatives: IssueInitiativeResponse[];
}

/** Error shape of the link routes: `{ error, code }` plus recovery data for reference errors */
export class LinkErrorResponse {
  error: string;
  /** e.g. `validation_failed`, `invalid_reference`, `reference_not_found`, `issue_out_of_scope`, `milestone_out_of_scope`, `ambiguous_reference`, `ambiguous_milestone`, `forbidden`, `unauthorized` */
  code: string;
  reference?: string;
  /** `invalid_reference` only */
  accepted_forms?: string[];
  /** Ambiguous references only: readable candidates */
  candidates?: Array<Record<string, unknown>>;
}

export class BoardContextInitiative {
  id: string;
  title: string;
  status: string;
  /** Its non-archived issues in this project (directly linked or in a linked milestone) */
  issueCount: number;
  /** Of those, the ones done */
  completedCount: number;
  /** completedCount / issueCount in percent, rounded (0 without issues) */
  progress: number;
  /** Its KPI impacts on KPIs the caller can read */
  kpiImpactCount: number;
  /** Milestones of this project linked to it */
  linkedMilestoneIds: string[];
}
export class BoardContextMilestone {
  id: string;
  name: string;
  status: string;
  /** Its non-archived issues */
  issueCount: number;
  completedCount: number;
  progress: number;
  linkedInitiatives: BoardContextInitiative[];
}
export class BoardContextIssueLink {
  issueId: string;
  /** Readable initiatives linked to the issue directly or through its milestone */
  initiativeIds: string[];
}
export class BoardStrategyContext {
  milestones: BoardContextMilestone[];
  initiatives: BoardContextInitiative[];
  issueInitiativeLinks: BoardContextIssueLink[];
}
export class BoardContextResponse {
  strategyContext: BoardStrategyContext;
}
