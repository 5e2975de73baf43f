import { Injectable } from '@nestjs/common';
import { Sql } from '../../database/sql.service';
import { DependencyRules } from '../dependencies/dependency-rules.service';
import type { InitiativeWorkRow, IssueHealthRow, KpiHealthRow, MilestoneHealthRow, TargetDirection, TargetHealthRow } from './strategy-health';
import { HEALTH_INITIATIVE_STATUSES, TERMINAL_ISSUE_STATUSES } from './strategy-health';

/**
 * The strategy audit's read model: the statements that load the rows strategy health is judged on,
 * one organization at a time, a few set-based statements (no per-record queries). They join the
 * tables the audit declares (goals, KPIs and snapshots, initiatives and their links and targets,
 * issues, dependencies, board columns, milestones, projects) and are planned for their actual
 * values on every execution (`Sql.planned`): the visibility conditions (`$2 IS NULL OR …`) and
 * the organizations' sizes vary too much for one generic plan. `readable` is the caller's readable project ids
 * (null = every project): project-bound rows of other projects are left out; organization-level
 * strategy (no project) and projectless issues are included (callers are non-guests).
 *
 * "Linked work" of an initiative = its non-archived issues linked directly (initiative_issues) or
 * through a linked milestone (initiative_milestones → issues.milestone_id), each counted once.
 */

export interface GoalRow {
  id: string;
  title: string;
  status: string;
  projectId: string | null;
  targetDate: string | null;
  kpiCount: number;
  initiativeCount: number;
}
export interface KpiRow extends KpiHealthRow {
  id: string;
  name: string;
  goalId: string | null;
  goalStatus: string | null;
  projectId: string | null;
}
export interface InitiativeRow extends InitiativeWorkRow {
  id: string;
  title: string;
  goalId: string | null;
  projectId: string | null;
  impactCount: number;
}
export interface DanglingRow {
  kind: 'project' | 'issue' | 'milestone';
  initiativeId: string;
  initiativeTitle: string;
  projectId: string | null;
  issueId: string | null;
  milestoneId: string | null;
  reason: string;
}
export interface IssueRow extends IssueHealthRow {
  id: string;
  number: number;
  title: string;
  projectId: string | null;
  initiativeId: string;
}
export interface MilestoneRow extends MilestoneHealthRow {
  id: string;
  name: string;
  projectId: string;
  initiativeId: string;
}
export interface TargetRow extends TargetHealthRow {
  id: string;
  title: string;
  initiativeId: string;
  projectId: string | null;
}

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
/**
 * Whether `alias`'s project is readable (`param`: readable project ids, null for every project).
 * Projectless rows are readable, unless `projectless` names a boolean parameter that decides it.
 */
const proj = (alias: string, param: string, projectless?: string) =>
  projectless === undefined
    ? `(${param}::uuid[] IS NULL OR ${alias}.project_id IS NULL OR ${alias}.project_id = ANY(${param}::uuid[]))`
    : `(CASE WHEN ${alias}.project_id IS NULL THEN ${projectless}::boolean ELSE ${param}::uuid[] IS NULL OR ${alias}.project_id = ANY(${param}::uuid[]) END)`;

/** Non-archived issues linked to initiative `ini_alias`: direct links and issues of linked milestones. */
export const LINKED_ISSUES_SQL = (iniAlias: string) => `
  SELECT ii.issue_id FROM initiative_issues ii WHERE ii.org_id = ${iniAlias}.org_id AND ii.initiative_id = ${iniAlias}.id
  UNION
  SELECT mi.id FROM initiative_milestones im
   CROSS JOIN LATERAL (SELECT li.id FROM issues li WHERE li.org_id = im.org_id AND li.milestone_id = im.milestone_id OFFSET 0) mi
   WHERE im.org_id = ${iniAlias}.org_id AND im.initiative_id = ${iniAlias}.id`;

/** The audit's read model (see above). */
@Injectable()
export class StrategyHealthRepository {
  constructor(
    private readonly sql: Sql,
    private readonly deps: DependencyRules,
  ) {}

  /** Goals (readable), oldest first, with their KPI and live initiative counts. */
  async goals(orgId: string, readable: string[] | null): Promise<GoalRow[]> {
    const rows = await this.sql.planned(
      `SELECT g.id, g.title, g.status, g.project_id, to_char(g.target_date, 'YYYY-MM-DD') AS target_date,
              (SELECT count(*)::int FROM kpis k WHERE k.org_id = g.org_id AND k.goal_id = g.id) AS kpi_count,
              (SELECT count(*)::int FROM initiatives i WHERE i.org_id = g.org_id AND i.goal_id = g.id AND i.status <> 'cancelled') AS initiative_count
         FROM goals g WHERE g.org_id = $1 AND ${proj('g', '$2')}
        ORDER BY g.created_at, g.id`,
      [orgId, readable],
    );
    return rows.map((r) => ({
      id: r.id,
      title: r.title,
      status: r.status,
      projectId: r.project_id,
      targetDate: r.target_date,
      kpiCount: r.kpi_count,
      initiativeCount: r.initiative_count,
    }));
  }

  /** KPIs (readable), oldest first, with their goal's status and date and their first snapshot. */
  async kpis(orgId: string, readable: string[] | null): Promise<KpiRow[]> {
    const rows = await this.sql.planned(
      `SELECT k.id, k.name, k.goal_id, g.status AS goal_status, k.project_id, k.source_type, k.current_value, k.target_value, k.baseline_value,
              k.target_direction, to_char(coalesce(k.target_date, g.target_date), 'YYYY-MM-DD') AS target_date, k.stale_after_hours,
              k.created_at, k.last_recorded_at, s.n AS snapshot_count, f.value AS first_value, f.created_at AS first_at
         FROM kpis k
         LEFT JOIN goals g ON g.org_id = k.org_id AND g.id = k.goal_id
         LEFT JOIN LATERAL (SELECT count(*)::int AS n FROM kpi_snapshots s WHERE s.org_id = k.org_id AND s.kpi_id = k.id) s ON true
         LEFT JOIN LATERAL (SELECT s.value, s.created_at FROM kpi_snapshots s WHERE s.org_id = k.org_id AND s.kpi_id = k.id
                             ORDER BY s.created_at, s.id LIMIT 1) f ON true
        WHERE k.org_id = $1 AND ${proj('k', '$2')}
        ORDER BY k.created_at, k.id`,
      [orgId, readable],
    );
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      goalId: r.goal_id,
      goalStatus: r.goal_status,
      projectId: r.project_id,
      sourceType: r.source_type,
      currentValue: num(r.current_value),
      targetValue: num(r.target_value),
      baselineValue: num(r.baseline_value),
      targetDirection: r.target_direction as TargetDirection,
      targetDate: r.target_date,
      staleAfterHours: r.stale_after_hours,
      createdAt: new Date(r.created_at),
      lastRecordedAt: r.last_recorded_at ? new Date(r.last_recorded_at) : null,
      snapshotCount: r.snapshot_count,
      firstSnapshotValue: num(r.first_value),
      firstSnapshotAt: r.first_at ? new Date(r.first_at) : null,
    }));
  }

  /**
   * Everything the audit judges on the linked work of initiatives in `statuses`, in ONE statement
   * that builds the organization's issue links once (the link set is tens of thousands of pairs;
   * computing it per finding type cost most of an uncached audit):
   * - `initiatives`: the initiatives in `statuses` (readable), ordered by creation, with their
   *   linked-work aggregates (issues counted once, archived ones left out; not filtered by the
   *   reader's projects), milestone and KPI impact counts;
   * - `dangling`: their dangling execution links, ordered by kind, initiative, project, issue,
   *   milestone:
   *   - project: the linked project is archived;
   *   - issue: the directly linked issue is archived or sits in an archived project;
   *   - milestone: the milestone is cancelled, its project is archived, or its project is linked to
   *     the initiative neither as its project nor through initiative_projects;
   * - `issues`: open (readable) issues in their linked work that are overdue (due date over by
   *   `today`) or blocked, ordered by due date (nulls last) and id; `initiativeId` is the first
   *   such initiative (by id).
   */
  async linkedWork(
    orgId: string,
    readable: string[] | null,
    today: string,
    statuses: readonly string[] = HEALTH_INITIATIVE_STATUSES,
  ): Promise<{ initiatives: InitiativeRow[]; dangling: DanglingRow[]; issues: IssueRow[] }> {
    const rows = await this.sql.planned(
      `WITH n AS MATERIALIZED (
         SELECT n.org_id, n.id, n.title, n.goal_id, n.project_id, n.status, n.target_date, n.created_at
           FROM initiatives n WHERE n.org_id = $1 AND n.status = ANY($4::text[]) AND ${proj('n', '$2')}),
       -- their direct links, with the issue (archived ones too)
       d AS MATERIALIZED (
         SELECT ii.initiative_id, i.id, i.project_id, i.status, i.archived_at, i.updated_at, i.due_date, i.milestone_id,
                i.archived_at IS NULL AND i.status <> ALL($5::text[]) AS open
           FROM initiative_issues ii JOIN issues i ON i.org_id = ii.org_id AND i.id = ii.issue_id
          WHERE ii.org_id = $1 AND ii.initiative_id IN (SELECT n.id FROM n)),
       -- their linked milestones, and the issues of those milestones (each issue once)
       nm AS MATERIALIZED (
         SELECT im.initiative_id, im.milestone_id FROM initiative_milestones im
          WHERE im.org_id = $1 AND im.initiative_id IN (SELECT n.id FROM n)),
       mi AS MATERIALIZED (
         SELECT i.id, i.project_id, i.status, i.archived_at, i.updated_at, i.due_date, i.milestone_id,
                i.archived_at IS NULL AND i.status <> ALL($5::text[]) AS open
           FROM issues i WHERE i.org_id = $1 AND i.milestone_id IN (SELECT nm.milestone_id FROM nm)),
       -- linked work per initiative: direct + through milestones - both (an issue has one milestone,
       -- so the issue sets of an initiative's milestones are disjoint)
       wd AS (SELECT d.initiative_id, count(*) AS linked, count(*) FILTER (WHERE d.open) AS open, max(d.updated_at) AS last_update
                FROM d WHERE d.archived_at IS NULL GROUP BY d.initiative_id),
       ma AS (SELECT mi.milestone_id, count(*) AS linked, count(*) FILTER (WHERE mi.open) AS open, max(mi.updated_at) AS last_update
                FROM mi WHERE mi.archived_at IS NULL GROUP BY mi.milestone_id),
       wm AS (SELECT nm.initiative_id, sum(ma.linked) AS linked, sum(ma.open) AS open, max(ma.last_update) AS last_update
                FROM nm JOIN ma ON ma.milestone_id = nm.milestone_id GROUP BY nm.initiative_id),
       wb AS (SELECT d.initiative_id, count(*) AS linked, count(*) FILTER (WHERE d.open) AS open
                FROM d JOIN nm ON nm.initiative_id = d.initiative_id AND nm.milestone_id = d.milestone_id
               WHERE d.archived_at IS NULL GROUP BY d.initiative_id),
       -- open readable linked issues (each once), those overdue or blocked, and their first initiative
       open AS MATERIALIZED (
         SELECT d.id, d.project_id, d.status, d.due_date FROM d WHERE d.open AND ${proj('d', '$2')}
         UNION
         SELECT mi.id, mi.project_id, mi.status, mi.due_date FROM mi WHERE mi.open AND ${proj('mi', '$2')}),
       od AS MATERIALIZED (
         SELECT dep.blocked_issue_id, dep.blocking_issue_id, dep.release_column_id FROM open o JOIN issue_dependencies dep ON dep.org_id = $1 AND dep.blocked_issue_id = o.id),
       -- their blockers, by key (= ANY(ARRAY(...)): index probes, not a hash of every open issue)
       b AS MATERIALIZED (
         SELECT b.id, b.status, b.archived_at, b.project_id FROM issues b WHERE b.org_id = $1 AND b.id = ANY(ARRAY(SELECT od.blocking_issue_id FROM od))),
       -- unsatisfied: DependencyRules' definition with the board columns joined (one hash join, not two scans per dependency)
       blocked AS (
         SELECT DISTINCT dx.blocked_issue_id AS id
           FROM (SELECT od.blocked_issue_id, od.release_column_id, b.status, b.archived_at, b.project_id
                   FROM od JOIN b ON b.id = od.blocking_issue_id) dx
           LEFT JOIN board_columns rc ON rc.org_id = $1 AND rc.id = dx.release_column_id AND rc.project_id = dx.project_id
           LEFT JOIN board_columns sc ON sc.org_id = $1 AND sc.project_id = rc.project_id AND sc.key = dx.status
          WHERE NOT ${this.deps.satisfiedByColumnsSql('dx', 'rc', 'sc')}),
       troubled AS MATERIALIZED (
         SELECT o.*, bl.id IS NOT NULL AS blocked
           FROM open o LEFT JOIN blocked bl ON bl.id = o.id
          WHERE bl.id IS NOT NULL OR o.due_date < $3::date),
       first AS (
         SELECT x.id, min(x.initiative_id::text)::uuid AS initiative_id
           FROM (SELECT d.id, d.initiative_id FROM d WHERE d.id IN (SELECT t.id FROM troubled t)
                 UNION ALL
                 SELECT mi.id, nm.initiative_id FROM mi JOIN nm ON nm.milestone_id = mi.milestone_id WHERE mi.id IN (SELECT t.id FROM troubled t)) x
          GROUP BY x.id),
       dangling AS (
         SELECT 'project' AS kind, n.id AS initiative_id, n.title, p.id AS project_id, NULL::uuid AS issue_id, NULL::uuid AS milestone_id, 'project_archived' AS reason
           FROM n JOIN initiative_projects ip ON ip.org_id = n.org_id AND ip.initiative_id = n.id
           JOIN projects p ON p.org_id = ip.org_id AND p.id = ip.project_id
          WHERE p.status = 'archived' AND ($2::uuid[] IS NULL OR p.id = ANY($2::uuid[]))
         UNION ALL
         SELECT 'issue', n.id, n.title, d.project_id, d.id, NULL, CASE WHEN d.archived_at IS NOT NULL THEN 'issue_archived' ELSE 'project_archived' END
           FROM d JOIN n ON n.id = d.initiative_id
           LEFT JOIN projects p ON p.org_id = $1 AND p.id = d.project_id
          WHERE (d.archived_at IS NOT NULL OR p.status = 'archived') AND ${proj('d', '$2')}
         UNION ALL
         SELECT 'milestone', n.id, n.title, m.project_id, NULL, m.id,
                CASE WHEN p.status = 'archived' THEN 'project_archived' WHEN m.status = 'cancelled' THEN 'milestone_cancelled' ELSE 'project_not_linked' END
           FROM nm JOIN n ON n.id = nm.initiative_id
           JOIN milestones m ON m.org_id = $1 AND m.id = nm.milestone_id
           JOIN projects p ON p.org_id = m.org_id AND p.id = m.project_id
          WHERE (p.status = 'archived' OR m.status = 'cancelled'
                 OR (m.project_id IS DISTINCT FROM n.project_id AND NOT EXISTS (
                      SELECT 1 FROM initiative_projects ip WHERE ip.org_id = n.org_id AND ip.initiative_id = n.id AND ip.project_id = m.project_id)))
            AND ${proj('m', '$2')})
       SELECT 'n' AS row, (row_number() OVER (ORDER BY n.created_at, n.id))::int AS ord, n.id, n.title, n.goal_id, n.project_id, n.status,
              to_char(n.target_date, 'YYYY-MM-DD') AS date, NULL::int AS number,
              (coalesce(wd.linked, 0) + coalesce(wm.linked, 0) - coalesce(wb.linked, 0))::int AS linked,
              (coalesce(wd.open, 0) + coalesce(wm.open, 0) - coalesce(wb.open, 0))::int AS open,
              greatest(wd.last_update, wm.last_update) AS last_update,
              (SELECT count(*)::int FROM initiative_milestones im WHERE im.org_id = n.org_id AND im.initiative_id = n.id) AS milestones,
              (SELECT count(*)::int FROM initiative_kpi_impacts x WHERE x.org_id = n.org_id AND x.initiative_id = n.id) AS impacts,
              NULL::boolean AS blocked, NULL::uuid AS initiative_id, NULL AS kind, NULL::uuid AS issue_id, NULL::uuid AS milestone_id, NULL AS reason
         FROM n LEFT JOIN wd ON wd.initiative_id = n.id LEFT JOIN wm ON wm.initiative_id = n.id LEFT JOIN wb ON wb.initiative_id = n.id
       UNION ALL
       SELECT 'i', (row_number() OVER (ORDER BY t.due_date NULLS LAST, t.id))::int, t.id, i.title, NULL, t.project_id, t.status,
              to_char(t.due_date, 'YYYY-MM-DD'), i.number, NULL, NULL, NULL, NULL, NULL,
              t.blocked, f.initiative_id, NULL, NULL, NULL, NULL
         FROM troubled t JOIN first f ON f.id = t.id JOIN issues i ON i.org_id = $1 AND i.id = t.id
       UNION ALL
       SELECT 'd', (row_number() OVER (ORDER BY d.kind, d.initiative_id, d.project_id, d.issue_id, d.milestone_id))::int, NULL, d.title, NULL, d.project_id, NULL,
              NULL, NULL, NULL, NULL, NULL, NULL, NULL,
              NULL, d.initiative_id, d.kind, d.issue_id, d.milestone_id, d.reason
         FROM dangling d`,
      [orgId, readable, today, statuses, TERMINAL_ISSUE_STATUSES],
    );
    const initiatives: InitiativeRow[] = [];
    const dangling: DanglingRow[] = [];
    const issues: IssueRow[] = [];
    rows.sort((a, b) => a.ord - b.ord);
    for (const r of rows) {
      if (r.row === 'n') {
        initiatives.push({
          id: r.id,
          title: r.title,
          goalId: r.goal_id,
          projectId: r.project_id,
          status: r.status,
          targetDate: r.date,
          linkedIssues: r.linked ?? 0,
          openIssues: r.open ?? 0,
          linkedMilestones: r.milestones,
          lastIssueUpdateAt: r.last_update ? new Date(r.last_update) : null,
          impactCount: r.impacts,
        });
      } else if (r.row === 'i') {
        issues.push({
          id: r.id,
          number: r.number,
          title: r.title,
          projectId: r.project_id,
          status: r.status,
          archived: false,
          dueDate: r.date,
          blocked: r.blocked,
          initiativeId: r.initiative_id,
        });
      } else {
        dangling.push({
          kind: r.kind,
          initiativeId: r.initiative_id,
          initiativeTitle: r.title,
          projectId: r.project_id,
          issueId: r.issue_id,
          milestoneId: r.milestone_id,
          reason: r.reason,
        });
      }
    }
    return { initiatives, dangling, issues };
  }

  /** Milestones linked to initiatives in `statuses` (directly or through their targets) that are past their date and open. */
  async overdueMilestones(
    orgId: string,
    readable: string[] | null,
    today: string,
    statuses: readonly string[] = HEALTH_INITIATIVE_STATUSES,
  ): Promise<MilestoneRow[]> {
    const targetLinks = (await this.hasTargets()) ? `UNION SELECT tm.initiative_id, tm.milestone_id FROM ${TARGET_MILESTONES_SQL}` : '';
    const rows = await this.sql.planned(
      `WITH links AS (SELECT im.initiative_id, im.milestone_id FROM initiative_milestones im WHERE im.org_id = $1 ${targetLinks})
       SELECT m.id, m.name, m.project_id, m.status, to_char(m.target_date, 'YYYY-MM-DD') AS target_date, min(n.id::text)::uuid AS initiative_id
         FROM links l
         JOIN initiatives n ON n.org_id = $1 AND n.id = l.initiative_id AND n.status = ANY($4::text[])
         JOIN milestones m ON m.org_id = $1 AND m.id = l.milestone_id
        WHERE m.target_date < $3 AND m.status NOT IN ('completed', 'cancelled') AND ${proj('m', '$2')}
        GROUP BY m.id, m.name, m.project_id, m.status, m.target_date
        ORDER BY m.target_date, m.id`,
      [orgId, readable, today, statuses],
    );
    return rows.map((r) => ({ id: r.id, name: r.name, projectId: r.project_id, status: r.status, targetDate: r.target_date, initiativeId: r.initiative_id }));
  }

  /**
   * Initiative targets of initiatives in `statuses`, with link and blocked counts (empty until the
   * targets schema exists). The blocked count is over readable issues: projectless ones only when
   * `projectlessIssues` (a project-scoped guest reads none, heartbeat's Visibility).
   */
  async targets(
    orgId: string,
    readable: string[] | null,
    statuses: readonly string[] = HEALTH_INITIATIVE_STATUSES,
    projectlessIssues = true,
  ): Promise<TargetRow[]> {
    if (!(await this.hasTargets())) return [];
    const rows = await this.sql.planned(
      `SELECT t.id, t.title, t.initiative_id, n.project_id, t.mode, t.current_value, t.target_value, t.target_direction,
              to_char(t.target_date, 'YYYY-MM-DD') AS target_date, t.due_soon_days, t.status,
              (SELECT count(*)::int FROM initiative_target_issues ti WHERE ti.org_id = t.org_id AND ti.target_id = t.id) AS issues,
              (SELECT count(*)::int FROM initiative_target_milestones tm WHERE tm.org_id = t.org_id AND tm.target_id = t.id) AS milestones,
              (SELECT count(*)::int FROM initiative_target_issues ti JOIN issues i ON i.org_id = ti.org_id AND i.id = ti.issue_id
                WHERE ti.org_id = t.org_id AND ti.target_id = t.id AND i.archived_at IS NULL AND i.status <> ALL($4::text[])
                  AND ${proj('i', '$2', '$5')} AND ${this.deps.blockedIssuesSql('i')}) AS blocked
         FROM initiative_targets t
         JOIN initiatives n ON n.org_id = t.org_id AND n.id = t.initiative_id
        WHERE t.org_id = $1 AND t.status = 'active' AND n.status = ANY($3::text[]) AND ${proj('n', '$2')}
        ORDER BY t.created_at, t.id`,
      [orgId, readable, statuses, TERMINAL_ISSUE_STATUSES, projectlessIssues],
    );
    return rows.map((r) => ({
      id: r.id,
      title: r.title,
      initiativeId: r.initiative_id,
      projectId: r.project_id,
      mode: r.mode,
      currentValue: num(r.current_value),
      targetValue: num(r.target_value),
      targetDirection: r.target_direction ?? 'increase',
      targetDate: r.target_date,
      dueSoonDays: r.due_soon_days ?? null,
      status: r.status ?? null,
      linkedIssues: r.issues,
      linkedMilestones: r.milestones,
      blockedIssues: r.blocked,
    }));
  }

  private targetsTable: Promise<boolean> | null = null;
  /** Whether the initiative-targets schema (another migration) is present. */
  hasTargets(): Promise<boolean> {
    this.targetsTable ??= this.sql
      .row<{ ok: boolean }>(`SELECT to_regclass('initiative_target_milestones') IS NOT NULL AND to_regclass('initiative_target_issues') IS NOT NULL AS ok`)
      .then((r) => r!.ok);
    return this.targetsTable;
  }
}

/** Target milestone links with their initiative (alias `tm`; needs `$1` = organization). */
const TARGET_MILESTONES_SQL = `(SELECT t.initiative_id, x.milestone_id FROM initiative_target_milestones x
  JOIN initiative_targets t ON t.org_id = x.org_id AND t.id = x.target_id WHERE x.org_id = $1) tm`;
