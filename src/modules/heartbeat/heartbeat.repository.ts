import { Injectable } from '@nestjs/common';
import { Sql } from '../../database/sql.service';
import { DependencyRules } from '../dependencies/dependency-rules.service';
import { LINKED_ISSUES_SQL } from '../strategy-health/strategy-health.repository';
import { TERMINAL_ISSUE_STATUSES, TERMINAL_MILESTONE_STATUSES } from '../strategy-health/strategy-health';

/**
 * The heartbeat's read model: a fixed handful of set-based statements per briefing, whatever the
 * organization's size (no statement per issue, KPI or initiative). Goals, KPIs and initiative
 * targets come from the strategy audit's StrategyHealthRepository; notifications from
 * NotificationsReader; failing webhooks from WebhooksRepository. The statements here join the
 * tables they declare: issues, issue_assignees, issue_dependencies, board_columns, milestones,
 * projects, initiatives and their links (initiative_projects, initiative_issues,
 * initiative_milestones, initiative_kpi_impacts), initiative targets and their issue links,
 * kpi_snapshots.
 *
 * Visibility: `readable` = readable project ids (null = every project); `projectless` = whether
 * projectless issues are readable (non-guests). Every count and list is over readable work only.
 * Every list is bounded (LIMIT) and ordered to the last key, so the same data gives the same rows.
 */

export interface Visibility {
  readable: string[] | null;
  projectless: boolean;
}

export interface HbIssue {
  id: string;
  number: number;
  title: string;
  status: string;
  priority: number;
  projectId: string | null;
  milestoneId: string | null;
  assigneeId: string | null;
  dueDate: string | null;
  updatedAt: Date;
  blocked: boolean;
  initiativeIds: string[];
}

export interface HbInitiative {
  id: string;
  title: string;
  status: string;
  goalId: string | null;
  projectId: string | null;
  projectIds: string[];
  targetDate: string | null;
  total: number;
  completed: number;
  open: number;
  blocked: number;
  /** Open linked issues unchanged for the stall period (null in the compact view, which does not show it). */
  stalled: number | null;
  lastIssueUpdateAt: Date | null;
  linkedMilestones: number;
  impacts: Array<{ kpi_id: string; expected_impact: string | null }>;
  linked: HbIssue[];
}

/**
 * An initiative of the organization with every linked issue (not archived, any project), in the
 * order the full view lists them (HeartbeatRepository.orgInitiatives): each visibility derives its
 * counts and its first linked issues from the readable ones (`initiativesFor`).
 */
export interface OrgInitiative extends Omit<HbInitiative, 'total' | 'completed' | 'open' | 'blocked' | 'stalled' | 'lastIssueUpdateAt' | 'linked'> {
  linked: Array<HbIssue & { completed: boolean }>;
}

/** An unsatisfied dependency of the organization with the projects its visibility filters read. */
export interface OrgDependency {
  dep: HbDependency;
  blockedProjectId: string | null;
  blockerProjectId: string | null;
}

export interface HbDependency {
  blockedId: string;
  blockerId: string;
  blocked: HbIssue & { gate: boolean };
  /** Null when the caller cannot read the blocker. */
  blocker: (HbIssue & { owned: boolean; archived: boolean }) | null;
  release: { columnId: string; key: string; label: string } | null;
}

export interface HbMilestone {
  id: string;
  name: string;
  status: string;
  projectId: string;
  targetDate: string;
  openIssues: number;
  initiativeIds: string[];
}

export interface HbSnapshot {
  kpiId: string;
  value: number;
  source: string;
  createdAt: Date;
  attributionNote: string | null;
  initiativeId: string | null;
  issueId: string | null;
  issueProjectId: string | null;
}

export interface HbProject {
  id: string;
  name: string;
  columns: Array<{ id: string; key: string; label: string; description: string | null; position: number }>;
}

/** Bounds of the lists the read model returns. */
export const READ_LIMITS = {
  assigned: 200,
  dependencies: 500,
  /** Dependencies the organization-wide list holds; past that each visibility reads its own. */
  orgDependencies: 5000,
  /** Linked issues (over all initiatives) the organization-wide list holds; past that each visibility reads its own. */
  orgLinked: 20000,
  milestones: 200,
  initiatives: 200,
  linkedPerInitiative: 25,
  snapshotsPerKpi: 3,
  projects: 100,
} as const;

const vis = (alias: string) => `(($2::uuid[] IS NULL AND (${alias}.project_id IS NOT NULL OR $3::boolean))
  OR (${alias}.project_id IS NULL AND $3::boolean) OR ${alias}.project_id = ANY($2::uuid[]))`;

const ISSUE_COLUMNS = (a: string) => `${a}.id, ${a}.number, ${a}.title, ${a}.status, ${a}.priority, ${a}.project_id, ${a}.milestone_id,
  ${a}.assignee_id, to_char(${a}.due_date, 'YYYY-MM-DD') AS due_date, ${a}.updated_at`;

const INITIATIVES_OF_ISSUE = (a: string) => `array(
  SELECT ii.initiative_id FROM initiative_issues ii WHERE ii.org_id = ${a}.org_id AND ii.issue_id = ${a}.id
  UNION SELECT im.initiative_id FROM initiative_milestones im WHERE im.org_id = ${a}.org_id AND im.milestone_id = ${a}.milestone_id
  ORDER BY 1)::uuid[]`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a row straight from SQL (as Sql.rows returns it)
type SqlRow = Record<string, any>;

/** Who reads a project (`vis` in JavaScript): projectless work for `projectless` callers, a project when it is readable. */
export function readerOf(v: Visibility): (p: string | null) => boolean {
  return (p) => (p === null ? v.projectless : v.readable === null || v.readable.includes(p));
}

function dependencyOf(r: SqlRow, blockerReadable: boolean): HbDependency {
  return {
    blockedId: r.blocked_issue_id,
    blockerId: r.blocking_issue_id,
    blocked: { ...issueOf(r), blocked: true, gate: r.gate },
    blocker: blockerReadable ? { ...issueOf(r, 'b_'), initiativeIds: [], owned: r.b_owned, archived: r.b_archived } : null,
    release: r.rc_id ? { columnId: r.rc_id, key: r.rc_key, label: r.rc_label } : null,
  };
}

function snapshotOf(r: SqlRow): HbSnapshot {
  return {
    kpiId: r.kpi_id,
    value: Number(r.value),
    source: r.source,
    createdAt: new Date(r.created_at),
    attributionNote: r.attribution_note,
    initiativeId: r.attributed_to_initiative_id,
    issueId: r.attributed_to_issue_id,
    issueProjectId: r.issue_project_id,
  };
}

/** An initiative's own fields, as both initiative reads (per visibility and organization-wide) return them. */
function initiativeFields(r: SqlRow): Omit<OrgInitiative, 'linked'> {
  return {
    id: r.id,
    title: r.title,
    status: r.status,
    goalId: r.goal_id,
    projectId: r.project_id,
    projectIds: r.project_ids ?? [],
    targetDate: r.target_date,
    linkedMilestones: r.milestones,
    impacts: r.impacts,
  };
}

function issueOf(r: SqlRow, p = ''): HbIssue {
  return {
    id: r[`${p}id`],
    number: r[`${p}number`],
    title: r[`${p}title`],
    status: r[`${p}status`],
    priority: r[`${p}priority`],
    projectId: r[`${p}project_id`],
    milestoneId: r[`${p}milestone_id`],
    assigneeId: r[`${p}assignee_id`],
    dueDate: r[`${p}due_date`],
    updatedAt: new Date(r[`${p}updated_at`]),
    blocked: !!r[`${p}blocked`],
    initiativeIds: r[`${p}initiative_ids`] ?? [],
  };
}

@Injectable()
export class HeartbeatRepository {
  constructor(
    private readonly sql: Sql,
    private readonly deps: DependencyRules,
  ) {}

  /** Open work assigned to `memberId` (single or multi-assignee), readable, most urgent first. */
  async assigned(orgId: string, v: Visibility, memberId: string): Promise<HbIssue[]> {
    const rows = await this.sql.planned(
      `SELECT ${ISSUE_COLUMNS('i')}, ${this.deps.blockedIssuesSql('i')} AS blocked, ${INITIATIVES_OF_ISSUE('i')} AS initiative_ids
         FROM issues i
        WHERE i.org_id = $1 AND i.archived_at IS NULL AND i.status <> ALL($5::text[]) AND ${vis('i')}
          AND i.id IN (SELECT x.id FROM issues x WHERE x.org_id = $1 AND x.assignee_id = $4
                       UNION SELECT ia.issue_id FROM issue_assignees ia WHERE ia.org_id = $1 AND ia.member_id = $4)
        ORDER BY i.priority, i.due_date NULLS LAST, i.number, i.id
        LIMIT ${READ_LIMITS.assigned}`,
      [orgId, v.readable, v.projectless, memberId, TERMINAL_ISSUE_STATUSES],
    );
    return rows.map((r) => issueOf(r));
  }

  /**
   * Unsatisfied dependencies (DependencyRules' definition) whose blocked issue is open and readable,
   * with both ends, the release column and whether the blocked issue belongs to an active gate
   * target; the blocker's fields are null when the caller cannot read it. Ordered by blocker, blocked.
   */
  async dependencies(orgId: string, v: Visibility): Promise<HbDependency[]> {
    const rows = await this.dependencyRows(vis('x'), READ_LIMITS.dependencies, [orgId, v.readable, v.projectless, TERMINAL_ISSUE_STATUSES]);
    return rows.map((r) => dependencyOf(r, r.b_readable));
  }

  /**
   * Every unsatisfied dependency of the organization whose blocked issue is open, whatever the
   * project (HeartbeatWork: each visibility filters its own, see `dependenciesFor`), up to
   * READ_LIMITS.orgDependencies rows; null past that (then each visibility reads its own).
   */
  async orgDependencies(orgId: string): Promise<OrgDependency[] | null> {
    const rows = await this.dependencyRows('true', READ_LIMITS.orgDependencies + 1, [orgId, null, true, TERMINAL_ISSUE_STATUSES]);
    if (rows.length > READ_LIMITS.orgDependencies) return null;
    return rows.map((r) => ({ dep: dependencyOf(r, true), blockedProjectId: r.project_id, blockerProjectId: r.b_project_id }));
  }

  /** `dependencies` for one visibility from the organization's list (same rows, same order, same bound). */
  static dependenciesFor(all: OrgDependency[], v: Visibility): HbDependency[] {
    const canRead = readerOf(v);
    const out: HbDependency[] = [];
    for (const d of all) {
      if (out.length >= READ_LIMITS.dependencies) break;
      if (!canRead(d.blockedProjectId)) continue;
      out.push(canRead(d.blockerProjectId) ? d.dep : { ...d.dep, blocker: null });
    }
    return out;
  }

  /** The dependency statement: `blockedVisible` filters the blocked issue `x` ($2 readable, $3 projectless). */
  private async dependencyRows(blockedVisible: string, limit: number, values: unknown[]): Promise<SqlRow[]> {
    // the rows as one JSON array (parsed natively: as rows of some 30 columns, their transfer and
    // parsing cost the API about twice the statement's own time)
    const [r] = await this.sql.planned(
      `SELECT coalesce(json_agg(q ORDER BY q.blocking_issue_id, q.blocked_issue_id), '[]') AS deps FROM (${this.dependenciesSql(blockedVisible, limit)}) q`,
      values,
    );
    return r.deps as SqlRow[];
  }

  private dependenciesSql(blockedVisible: string, limit: number): string {
    return `WITH dx AS MATERIALIZED (
         SELECT d.blocked_issue_id, d.blocking_issue_id, d.release_column_id, b.status, b.archived_at, b.project_id
           FROM issue_dependencies d
           JOIN issues x ON x.org_id = d.org_id AND x.id = d.blocked_issue_id
           JOIN issues b ON b.org_id = d.org_id AND b.id = d.blocking_issue_id
          WHERE d.org_id = $1 AND x.archived_at IS NULL AND x.status <> ALL($4::text[]) AND ${blockedVisible})
       SELECT dx.blocked_issue_id, dx.blocking_issue_id, rc.id AS rc_id, rc.key AS rc_key, rc.label AS rc_label,
              ${ISSUE_COLUMNS('x')}, ${INITIATIVES_OF_ISSUE('x')} AS initiative_ids,
              EXISTS (SELECT 1 FROM initiative_target_issues ti JOIN initiative_targets t ON t.org_id = ti.org_id AND t.id = ti.target_id
                       WHERE ti.org_id = x.org_id AND ti.issue_id = x.id AND t.mode = 'gate' AND t.status = 'active') AS gate,
              ${vis('b')} AS b_readable,
              b.id AS b_id, b.number AS b_number, b.title AS b_title, b.status AS b_status, b.priority AS b_priority,
              b.project_id AS b_project_id, b.milestone_id AS b_milestone_id, b.assignee_id AS b_assignee_id,
              to_char(b.due_date, 'YYYY-MM-DD') AS b_due_date, b.updated_at AS b_updated_at, b.archived_at IS NOT NULL AS b_archived,
              (b.assignee_id IS NOT NULL OR EXISTS (SELECT 1 FROM issue_assignees ba WHERE ba.org_id = b.org_id AND ba.issue_id = b.id)) AS b_owned
         FROM dx
         LEFT JOIN board_columns rc ON rc.org_id = $1 AND rc.id = dx.release_column_id AND rc.project_id = dx.project_id
         LEFT JOIN board_columns sc ON sc.org_id = $1 AND sc.project_id = rc.project_id AND sc.key = dx.status
         JOIN issues x ON x.org_id = $1 AND x.id = dx.blocked_issue_id
         JOIN issues b ON b.org_id = $1 AND b.id = dx.blocking_issue_id
        WHERE NOT ${this.deps.satisfiedByColumnsSql('dx', 'rc', 'sc')}
        ORDER BY dx.blocking_issue_id, dx.blocked_issue_id
        LIMIT ${limit}`;
  }

  /** Readable milestones past their date and not completed/cancelled, with open issues and linked initiatives, oldest date first. */
  async overdueMilestones(orgId: string, v: Visibility, today: string): Promise<HbMilestone[]> {
    const rows = await this.sql.planned(
      `SELECT m.id, m.name, m.status, m.project_id, to_char(m.target_date, 'YYYY-MM-DD') AS target_date,
              (SELECT count(*)::int FROM issues i WHERE i.org_id = m.org_id AND i.milestone_id = m.id AND i.archived_at IS NULL
                  AND i.status <> ALL($5::text[])) AS open_issues,
              array(SELECT im.initiative_id FROM initiative_milestones im WHERE im.org_id = m.org_id AND im.milestone_id = m.id
                    UNION SELECT t.initiative_id FROM initiative_target_milestones tm JOIN initiative_targets t ON t.org_id = tm.org_id AND t.id = tm.target_id
                     WHERE tm.org_id = m.org_id AND tm.milestone_id = m.id ORDER BY 1)::uuid[] AS initiative_ids
         FROM milestones m
        WHERE m.org_id = $1 AND m.target_date < $4::date AND m.status <> ALL($6::text[]) AND ${vis('m')}
        ORDER BY m.target_date, m.id
        LIMIT ${READ_LIMITS.milestones}`,
      [orgId, v.readable, v.projectless, today, TERMINAL_ISSUE_STATUSES, TERMINAL_MILESTONE_STATUSES],
    );
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      status: r.status,
      projectId: r.project_id,
      targetDate: r.target_date,
      openIssues: r.open_issues,
      initiativeIds: r.initiative_ids ?? [],
    }));
  }

  /**
   * Initiatives (not cancelled) with their linked projects, KPI impacts and linked-work aggregates
   * over READABLE work only (shared initiatives are counted from accessible work), and up to
   * READ_LIMITS.linkedPerInitiative linked issues (open first). Which initiatives the caller may
   * see is decided by the caller (AccessPolicyService.strategySetLevel semantics).
   */
  async initiatives(orgId: string, v: Visibility, stalledBefore: Date): Promise<HbInitiative[]> {
    const rows = await this.sql.planned(
      `WITH n AS MATERIALIZED (
         SELECT n.org_id, n.id, n.title, n.status, n.goal_id, n.project_id, to_char(n.target_date, 'YYYY-MM-DD') AS target_date, n.created_at,
                array(SELECT ip.project_id FROM initiative_projects ip WHERE ip.org_id = n.org_id AND ip.initiative_id = n.id ORDER BY 1)::uuid[] AS project_ids
           FROM initiatives n WHERE n.org_id = $1 AND n.status <> 'cancelled'
          ORDER BY n.created_at, n.id LIMIT ${READ_LIMITS.initiatives}),
       w AS MATERIALIZED (
         SELECT n.id AS initiative_id, i.org_id, ${ISSUE_COLUMNS('i')},
                i.status = ANY($4::text[]) AS completed, ${this.deps.blockedIssuesSql('i')} AND i.status <> ALL($4::text[]) AS blocked
           FROM n CROSS JOIN LATERAL (${LINKED_ISSUES_SQL('n')}) l
           JOIN issues i ON i.org_id = $1 AND i.id = l.issue_id
          WHERE i.archived_at IS NULL AND ${vis('i')}),
       agg AS (
         SELECT w.initiative_id, count(*)::int AS total, count(*) FILTER (WHERE w.completed)::int AS completed,
                count(*) FILTER (WHERE NOT w.completed)::int AS open, count(*) FILTER (WHERE w.blocked)::int AS blocked,
                count(*) FILTER (WHERE NOT w.completed AND w.updated_at < $5)::int AS stalled, max(w.updated_at) AS last_update
           FROM w GROUP BY w.initiative_id),
       top AS (
         SELECT w.*, row_number() OVER (PARTITION BY w.initiative_id ORDER BY w.completed, w.priority, w.number, w.id) AS rn FROM w)
       SELECT n.id, n.title, n.status, n.goal_id, n.project_id, n.project_ids, n.target_date,
              coalesce(agg.total, 0) AS total, coalesce(agg.completed, 0) AS completed, coalesce(agg.open, 0) AS open,
              coalesce(agg.blocked, 0) AS blocked, coalesce(agg.stalled, 0) AS stalled, agg.last_update,
              (SELECT count(*)::int FROM initiative_milestones im WHERE im.org_id = n.org_id AND im.initiative_id = n.id) AS milestones,
              coalesce((SELECT json_agg(json_build_object('kpi_id', x.kpi_id, 'expected_impact', x.expected_impact) ORDER BY x.kpi_id)
                          FROM initiative_kpi_impacts x WHERE x.org_id = n.org_id AND x.initiative_id = n.id), '[]') AS impacts,
              coalesce((SELECT json_agg(json_build_object('id', t.id, 'number', t.number, 'title', t.title, 'status', t.status, 'priority', t.priority,
                          'project_id', t.project_id, 'milestone_id', t.milestone_id, 'assignee_id', t.assignee_id, 'due_date', t.due_date,
                          'updated_at', t.updated_at, 'blocked', t.blocked) ORDER BY t.rn)
                          FROM top t WHERE t.initiative_id = n.id AND t.rn <= ${READ_LIMITS.linkedPerInitiative}), '[]') AS linked
         FROM n LEFT JOIN agg ON agg.initiative_id = n.id
        ORDER BY n.created_at, n.id`,
      [orgId, v.readable, v.projectless, TERMINAL_ISSUE_STATUSES, stalledBefore],
    );
    return rows.map((r) => ({
      ...initiativeFields(r),
      total: r.total,
      completed: r.completed,
      open: r.open,
      blocked: r.blocked,
      stalled: r.stalled,
      lastIssueUpdateAt: r.last_update ? new Date(r.last_update) : null,
      linked: (r.linked as SqlRow[]).map((x) => issueOf(x)),
    }));
  }

  /**
   * The initiatives of `initiatives` for the whole organization (HeartbeatWork), with every linked
   * issue that is not archived, whatever its project, ordered as the full view lists them
   * (completed last, then priority, number, id), so that each visibility derives its readable-only
   * counts, stall count and first linked issues in memory (`initiativesFor`). Null past
   * READ_LIMITS.orgLinked linked issues (then each visibility reads its own).
   */
  async orgInitiatives(orgId: string): Promise<OrgInitiative[] | null> {
    // one statement; each initiative's linked issues as one JSON array of arrays (parsed natively:
    // as rows, their transfer and parsing cost the API about as much as the statement itself)
    const rows = await this.sql.planned(
      `WITH n AS MATERIALIZED (
         SELECT n.org_id, n.id, n.title, n.status, n.goal_id, n.project_id, to_char(n.target_date, 'YYYY-MM-DD') AS target_date, n.created_at,
                array(SELECT ip.project_id FROM initiative_projects ip WHERE ip.org_id = n.org_id AND ip.initiative_id = n.id ORDER BY 1)::uuid[] AS project_ids
           FROM initiatives n WHERE n.org_id = $1 AND n.status <> 'cancelled'
          ORDER BY n.created_at, n.id LIMIT ${READ_LIMITS.initiatives}),
       w AS MATERIALIZED (
         SELECT n.id AS initiative_id, ${ISSUE_COLUMNS('i')}, i.status = ANY($2::text[]) AS completed, bl.blocked AND i.status <> ALL($2::text[]) AS blocked
           FROM n CROSS JOIN LATERAL (${LINKED_ISSUES_SQL('n')}) l
           JOIN issues i ON i.org_id = $1 AND i.id = l.issue_id
           -- per linked issue (OFFSET 0: planned for one row, so never a hashed scan of every open issue of the database)
           CROSS JOIN LATERAL (SELECT ${this.deps.blockedIssuesSql('i')} AS blocked OFFSET 0) bl
          WHERE i.archived_at IS NULL
          LIMIT ${READ_LIMITS.orgLinked + 1}),
       agg AS (
         SELECT w.initiative_id, count(*)::int AS n,
                json_agg(json_build_array(w.id, w.number, w.title, w.status, w.priority, w.project_id, w.milestone_id, w.assignee_id, w.due_date,
                                          floor(extract(epoch FROM w.updated_at) * 1000)::bigint, w.completed, w.blocked)
                         ORDER BY w.completed, w.priority, w.number, w.id) AS linked
           FROM w GROUP BY w.initiative_id)
       SELECT n.id, n.title, n.status, n.goal_id, n.project_id, n.project_ids, n.target_date, coalesce(agg.n, 0) AS n, coalesce(agg.linked, '[]') AS linked,
              (SELECT count(*)::int FROM initiative_milestones im WHERE im.org_id = n.org_id AND im.initiative_id = n.id) AS milestones,
              coalesce((SELECT json_agg(json_build_object('kpi_id', x.kpi_id, 'expected_impact', x.expected_impact) ORDER BY x.kpi_id)
                          FROM initiative_kpi_impacts x WHERE x.org_id = n.org_id AND x.initiative_id = n.id), '[]') AS impacts
         FROM n LEFT JOIN agg ON agg.initiative_id = n.id
        ORDER BY n.created_at, n.id`,
      [orgId, TERMINAL_ISSUE_STATUSES],
    );
    if (rows.reduce((n, r) => n + (r.n as number), 0) > READ_LIMITS.orgLinked) return null;
    return rows.map((r) => ({
      ...initiativeFields(r),
      linked: (r.linked as unknown[][]).map(
        ([id, number, title, status, priority, projectId, milestoneId, assigneeId, dueDate, updatedMs, completed, blocked]) => ({
          id: id as string,
          number: number as number,
          title: title as string,
          status: status as string,
          priority: priority as number,
          projectId: projectId as string | null,
          milestoneId: milestoneId as string | null,
          assigneeId: assigneeId as string | null,
          dueDate: dueDate as string | null,
          updatedAt: new Date(updatedMs as number),
          blocked: !!blocked,
          initiativeIds: [],
          completed: completed as boolean,
        }),
      ),
    }));
  }

  /**
   * `initiatives` for one visibility from the organization's list: the same counts over readable
   * work (stalled: open and unchanged since `stalledBefore`), and with `withLinked` the same first
   * READ_LIMITS.linkedPerInitiative readable linked issues (else none: the compact view shows none).
   */
  static initiativesFor(all: OrgInitiative[], v: Visibility, stalledBefore: Date, withLinked: boolean): HbInitiative[] {
    const canRead = readerOf(v);
    const before = stalledBefore.getTime();
    return all.map(({ linked: rows, ...n }) => {
      let total = 0;
      let completed = 0;
      let blocked = 0;
      let stalled = 0;
      let last: Date | null = null;
      const linked: HbIssue[] = [];
      for (const { completed: done, ...i } of rows) {
        if (!canRead(i.projectId)) continue;
        total++;
        if (done) completed++;
        else if (i.updatedAt.getTime() < before) stalled++;
        if (i.blocked) blocked++;
        if (!last || i.updatedAt > last) last = i.updatedAt;
        if (withLinked && linked.length < READ_LIMITS.linkedPerInitiative) linked.push(i);
      }
      return { ...n, total, completed, open: total - completed, blocked, stalled, lastIssueUpdateAt: last, linked };
    });
  }

  /**
   * The latest (attributed, when `attributedOnly`) snapshots of each readable KPI (up to
   * READ_LIMITS.snapshotsPerKpi), of the first `kpis` readable KPIs in the order StrategyHealthRepository.kpis
   * lists them (null: all), by KPI then newest first: read beside the KPIs, the caller keeps those it shows.
   */
  async visibleSnapshots(orgId: string, v: Visibility, kpis: number | null, attributedOnly: boolean): Promise<HbSnapshot[]> {
    const rows = await this.sql.planned(
      `SELECT s.kpi_id, s.value, s.source, s.created_at, s.attribution_note, s.attributed_to_initiative_id, s.attributed_to_issue_id, i.project_id AS issue_project_id
         FROM (SELECT k.id FROM kpis k WHERE k.org_id = $1 AND ${vis('k')} ORDER BY k.created_at, k.id LIMIT $4) k
         CROSS JOIN LATERAL (
           SELECT s.* FROM kpi_snapshots s WHERE s.org_id = $1 AND s.kpi_id = k.id
              AND (NOT $5::boolean OR s.attributed_to_initiative_id IS NOT NULL OR s.attributed_to_issue_id IS NOT NULL OR s.attribution_note IS NOT NULL)
            ORDER BY s.created_at DESC, s.id DESC LIMIT ${READ_LIMITS.snapshotsPerKpi}) s
         LEFT JOIN issues i ON i.org_id = $1 AND i.id = s.attributed_to_issue_id
        ORDER BY s.kpi_id, s.created_at DESC, s.id DESC`,
      [orgId, v.readable, v.projectless, kpis, attributedOnly],
    );
    return rows.map(snapshotOf);
  }

  /** Active projects among `projectIds` (null = all) with their board columns, by name then id. */
  async projects(orgId: string, projectIds: string[] | null): Promise<HbProject[]> {
    const rows = await this.sql.planned(
      `SELECT p.id, p.name,
              coalesce((SELECT json_agg(json_build_object('id', c.id, 'key', c.key, 'label', c.label, 'description', c.description, 'position', c.position)
                          ORDER BY c.position, c.id) FROM board_columns c WHERE c.org_id = p.org_id AND c.project_id = p.id), '[]') AS columns
         FROM projects p
        WHERE p.org_id = $1 AND p.status = 'active' AND ($2::uuid[] IS NULL OR p.id = ANY($2::uuid[]))
        ORDER BY lower(p.name), p.id
        LIMIT ${READ_LIMITS.projects}`,
      [orgId, projectIds],
    );
    return rows.map((r) => ({ id: r.id, name: r.name, columns: r.columns }));
  }

  /** Which of `ids` are projects, initiatives and board columns (with their project) of the organization. */
  async existing(
    orgId: string,
    ids: { projects: string[]; initiatives: string[]; columns: string[] },
  ): Promise<{ projects: Set<string>; initiatives: Set<string>; columns: Map<string, string> }> {
    const rows = await this.sql.rows<{ kind: string; id: string; project_id: string | null }>(
      `SELECT 'p' AS kind, p.id, p.id AS project_id FROM projects p WHERE p.org_id = $1 AND p.id = ANY($2::uuid[])
       UNION ALL SELECT 'i', n.id, NULL FROM initiatives n WHERE n.org_id = $1 AND n.id = ANY($3::uuid[])
       UNION ALL SELECT 'c', c.id, c.project_id FROM board_columns c WHERE c.org_id = $1 AND c.id = ANY($4::uuid[])`,
      [orgId, ids.projects, ids.initiatives, ids.columns],
    );
    const out = { projects: new Set<string>(), initiatives: new Set<string>(), columns: new Map<string, string>() };
    for (const r of rows) {
      if (r.kind === 'p') out.projects.add(r.id);
      else if (r.kind === 'i') out.initiatives.add(r.id);
      else out.columns.set(r.id, r.project_id!);
    }
    return out;
  }
}
