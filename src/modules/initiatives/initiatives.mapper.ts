import type { EntityManager } from 'typeorm';
import type { Visibility } from './initiative-scope.service';
import type {
  InitiativeIssueLinkResponse,
  InitiativeMilestoneLinkResponse,
  InitiativeResponse,
  KpiImpactResponse,
  LinkedIssueProjection,
  LinkedMilestoneProjection,
} from './initiatives.response';

type Row = Record<string, any>;
const iso = (v: unknown): string => new Date(v as string).toISOString();
const isoOrNull = (v: unknown): string | null => (v ? iso(v) : null);

export const INITIATIVE_SELECT = `SELECT i.id, i.title, i.name, i.description, i.goal_id, i.owner_member_id, i.status,
    to_char(i.start_date, 'YYYY-MM-DD') AS start_date, to_char(i.target_date, 'YYYY-MM-DD') AS target_date,
    i.project_id, i.created_by_member_id, i.created_at, i.updated_at,
    coalesce((SELECT array_agg(ip.project_id::text ORDER BY ip.created_at, ip.project_id) FROM initiative_projects ip
               WHERE ip.org_id = i.org_id AND ip.initiative_id = i.id), '{}') AS linked_project_ids
  FROM initiatives i`;

/**
 * Guests (and anyone without an organization-wide baseline) see initiatives bound to a readable
 * project, or organization-level ones linked to a readable project. `$n` holds the readable ids.
 */
export const visibleInitiativeSql = (param: string): string =>
  `(i.project_id = ANY(${param}::uuid[]) OR (i.project_id IS NULL AND EXISTS (SELECT 1 FROM initiative_projects vp
     WHERE vp.org_id = i.org_id AND vp.initiative_id = i.id AND vp.project_id = ANY(${param}::uuid[]))))`;

export const toInitiativeResponse = (r: Row, vis: Visibility): InitiativeResponse => ({
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
  project_ids: (r.linked_project_ids as string[]).filter((p) => vis.canSee(p)),
  created_by_id: r.created_by_member_id ?? null,
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});

export async function readInitiativeRow(m: EntityManager, orgId: string, id: string): Promise<Row | undefined> {
  const rows: Row[] = await m.query(`${INITIATIVE_SELECT} WHERE i.org_id = $1 AND i.id = $2`, [orgId, id]);
  return rows[0];
}

/** KPI impact rows of one initiative, only for KPIs the caller can read (a KPI follows its project binding). */
export async function readKpiImpacts(m: EntityManager, orgId: string, initiativeId: string, vis: Visibility, impactId?: string): Promise<KpiImpactResponse[]> {
  const rows: Row[] = await m.query(
    `SELECT x.id, x.initiative_id, x.kpi_id, x.expected_impact, x.created_by_member_id, x.created_at, k.name, k.goal_id, k.project_id
       FROM initiative_kpi_impacts x JOIN kpis k ON k.org_id = x.org_id AND k.id = x.kpi_id
      WHERE x.org_id = $1 AND x.initiative_id = $2 AND ($3::uuid IS NULL OR x.id = $3)
      ORDER BY x.created_at, x.id`,
    [orgId, initiativeId, impactId ?? null],
  );
  return rows
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
}

/** Issue columns for the linked-issue projection (`i` = issues, `p` = its project). */
export const ISSUE_PROJECTION_SQL = `i.number, i.title, i.status, i.priority, i.project_id, i.milestone_id, i.assignee_id,
  to_char(i.due_date, 'YYYY-MM-DD') AS due_date, i.archived_at, i.updated_at AS issue_updated_at, p.key AS project_key`;

export const toIssueProjection = (issueId: string, r: Row): LinkedIssueProjection => ({
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

/**
 * Issue links of an initiative or a target (`table` + `ownerColumn` name the link table), only to
 * issues the caller can read. `issueId` narrows to one link.
 */
export async function readIssueLinks(
  m: EntityManager,
  orgId: string,
  link: { table: 'initiative_issues' | 'initiative_target_issues'; ownerColumn: 'initiative_id' | 'target_id'; ownerId: string },
  vis: Visibility,
  issueId?: string,
): Promise<Array<{ issue_id: string; created_by_id: string | null; created_at: string; issue: LinkedIssueProjection }>> {
  const rows: Row[] = await m.query(
    `SELECT x.issue_id, x.created_by_member_id, x.created_at, ${ISSUE_PROJECTION_SQL}
       FROM ${link.table} x
       JOIN issues i ON i.org_id = x.org_id AND i.id = x.issue_id
       LEFT JOIN projects p ON p.org_id = i.org_id AND p.id = i.project_id
      WHERE x.org_id = $1 AND x.${link.ownerColumn} = $2 AND ($3::uuid IS NULL OR x.issue_id = $3)
      ORDER BY x.created_at, x.issue_id`,
    [orgId, link.ownerId, issueId ?? null],
  );
  return rows
    .filter((r) => vis.canSee(r.project_id ?? null))
    .map((r) => ({ issue_id: r.issue_id, created_by_id: r.created_by_member_id ?? null, created_at: iso(r.created_at), issue: toIssueProjection(r.issue_id, r) }));
}

export const toInitiativeIssueLink = (initiativeId: string, l: Awaited<ReturnType<typeof readIssueLinks>>[number], details: boolean): InitiativeIssueLinkResponse => ({
  initiative_id: initiativeId,
  issue_id: l.issue_id,
  created_by_id: l.created_by_id,
  created_at: l.created_at,
  ...(details ? { issue: l.issue } : {}),
});

/** Milestone links of an initiative or a target, only those whose milestone project the caller can read. */
export async function readMilestoneLinks(
  m: EntityManager,
  orgId: string,
  link: { table: 'initiative_milestones' | 'initiative_target_milestones'; ownerColumn: 'initiative_id' | 'target_id'; ownerId: string },
  vis: Visibility,
  milestoneId?: string,
): Promise<Array<{ milestone_id: string; created_by_id: string | null; created_at: string; milestone: LinkedMilestoneProjection }>> {
  const rows: Row[] = await m.query(
    `SELECT x.milestone_id, x.created_by_member_id, x.created_at, ms.name, ms.project_id, ms.status, to_char(ms.target_date, 'YYYY-MM-DD') AS target_date
       FROM ${link.table} x JOIN milestones ms ON ms.org_id = x.org_id AND ms.id = x.milestone_id
      WHERE x.org_id = $1 AND x.${link.ownerColumn} = $2 AND ($3::uuid IS NULL OR x.milestone_id = $3)
      ORDER BY x.created_at, x.milestone_id`,
    [orgId, link.ownerId, milestoneId ?? null],
  );
  return rows
    .filter((r) => vis.canSee(r.project_id))
    .map((r) => ({
      milestone_id: r.milestone_id,
      created_by_id: r.created_by_member_id ?? null,
      created_at: iso(r.created_at),
      milestone: { id: r.milestone_id, name: r.name, project_id: r.project_id, status: r.status, target_date: r.target_date ?? null },
    }));
}

export const toInitiativeMilestoneLink = (initiativeId: string, l: Awaited<ReturnType<typeof readMilestoneLinks>>[number]): InitiativeMilestoneLinkResponse => ({
  initiative_id: initiativeId,
  ...l,
});
