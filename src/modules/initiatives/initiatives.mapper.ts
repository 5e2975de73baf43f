import type { Visibility } from './initiative-scope.service';
import type {
  InitiativeIssueLinkResponse,
  InitiativeMilestoneLinkResponse,
  InitiativeResponse,
  IssueInitiativeResponse,
  KpiImpactResponse,
  LinkedIssueProjection,
  LinkedMilestoneProjection,
} from './initiatives.response';
import type { InitiativeKpiImpactRow, InitiativeRow, IssueInitiativeRow, IssueLinkRow, MilestoneLinkRow } from './initiatives.repository';

const iso = (v: unknown): string => new Date(v as string).toISOString();
const isoOrNull = (v: unknown): string | null => (v ? iso(v) : null);

export const toInitiativeResponse = (r: InitiativeRow, vis: Visibility): InitiativeResponse => ({
  id: r.id,
  title: r.title,
  name: r.name,
  description: r.description ?? null,
  goal_id: r.goal_id ?? null,
  owner_id: r.owner_member_id ?? null,
  status: r.status,
  start_date: r.start_date ?? null,
  target_date: r.target_date ?? null,
  project_id: r.project_id ?? null,
  project_ids: r.linked_project_ids.filter((p) => vis.canSee(p)),
  created_by_id: r.created_by_member_id ?? null,
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});

/** KPI impact rows of one initiative, only for KPIs the caller can read (a KPI follows its project binding). */
export const toKpiImpacts = (rows: InitiativeKpiImpactRow[], vis: Visibility): KpiImpactResponse[] =>
  rows
    .filter((r) => vis.canSee(r.project_id))
    .map((r) => ({
      id: r.id,
      initiative_id: r.initiative_id,
      kpi_id: r.kpi_id,
      expected_impact: r.expected_impact ?? null,
      created_by_id: r.created_by_member_id ?? null,
      created_at: iso(r.created_at),
      kpi: { id: r.kpi_id, name: r.name, goal_id: r.goal_id ?? null, project_id: r.project_id ?? null },
    }));

export const toIssueProjection = (issueId: string, r: IssueLinkRow): LinkedIssueProjection => ({
  id: issueId,
  number: r.number,
  identifier: r.project_id && r.project_key ? `${r.project_key}-${r.number}` : null,
  title: r.title,
  status: r.status,
  priority: r.priority,
  project_id: r.project_id ?? null,
  milestone_id: r.milestone_id ?? null,
  assignee_id: r.assignee_id ?? null,
  due_date: r.due_date ?? null,
  archived_at: isoOrNull(r.archived_at),
  updated_at: iso(r.issue_updated_at),
});

/** An issue link as responses show it. */
export interface IssueLink {
  issue_id: string;
  created_by_id: string | null;
  created_at: string;
  issue: LinkedIssueProjection;
}

/** Issue links of an initiative or a target, only to issues the caller can read. */
export const toIssueLinks = (rows: IssueLinkRow[], vis: Visibility): IssueLink[] =>
  rows
    .filter((r) => vis.canSee(r.project_id ?? null))
    .map((r) => ({
      issue_id: r.issue_id,
      created_by_id: r.created_by_member_id ?? null,
      created_at: iso(r.created_at),
      issue: toIssueProjection(r.issue_id, r),
    }));

export const toInitiativeIssueLink = (initiativeId: string, l: IssueLink, details: boolean): InitiativeIssueLinkResponse => ({
  initiative_id: initiativeId,
  issue_id: l.issue_id,
  created_by_id: l.created_by_id,
  created_at: l.created_at,
  ...(details ? { issue: l.issue } : {}),
});

/** A milestone link as responses show it. */
export interface MilestoneLink {
  milestone_id: string;
  created_by_id: string | null;
  created_at: string;
  milestone: LinkedMilestoneProjection;
}

/** Milestone links of an initiative or a target, only those whose milestone project the caller can read. */
export const toMilestoneLinks = (rows: MilestoneLinkRow[], vis: Visibility): MilestoneLink[] =>
  rows
    .filter((r) => vis.canSee(r.project_id))
    .map((r) => ({
      milestone_id: r.milestone_id,
      created_by_id: r.created_by_member_id ?? null,
      created_at: iso(r.created_at),
      milestone: { id: r.milestone_id, name: r.name, project_id: r.project_id, status: r.status, target_date: r.target_date ?? null },
    }));

export const toInitiativeMilestoneLink = (initiativeId: string, l: MilestoneLink): InitiativeMilestoneLinkResponse => ({
  initiative_id: initiativeId,
  ...l,
});

export const toIssueInitiative = (r: IssueInitiativeRow): IssueInitiativeResponse => ({
  id: r.id,
  title: r.title,
  name: r.name,
  status: r.status,
  goal_id: r.goal_id ?? null,
  project_id: r.project_id ?? null,
  linked_at: new Date(r.linked_at).toISOString(),
});
