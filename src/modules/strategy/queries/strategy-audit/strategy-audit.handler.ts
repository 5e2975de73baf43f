import { createHash } from 'node:crypto';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { ReadModels, STRATEGY_AUDIT } from '../../../../common/cache/read-models';
import { Clock } from '../../../../common/clock/clock';
import { Errors } from '../../../../common/errors/domain-error';
import * as H from '../../../strategy-health/strategy-health';
import { StrategyHealthRepository } from '../../../strategy-health/strategy-health.repository';
import { PendingFormulaRecalculations } from '../../formula/formula-kpi-issue.handler';
import type { AuditFinding, StrategyAuditResponse } from '../../strategy.response';
import { StrategyAuditQuery } from './strategy-audit.query';

type Severity = AuditFinding['severity'];
export const AUDIT_SEVERITIES: readonly Severity[] = ['critical', 'warning', 'info'];
const RANK: Record<Severity, number> = { critical: 0, warning: 1, info: 2 };

/** Every finding type, in report order within a severity. */
export const AUDIT_FINDING_TYPES = [
  'initiative_orphaned',
  'kpi_orphaned',
  'goal_missing_kpi',
  'goal_missing_initiative',
  'dangling_initiative_project',
  'dangling_initiative_issue',
  'dangling_initiative_milestone',
  'kpi_unrecorded',
  'kpi_missing_target',
  'kpi_stale',
  'kpi_off_pace',
  'initiative_missing_impact',
  'initiative_missing_execution',
  'initiative_stalled',
  'initiative_target_missing_execution',
  'initiative_target_overdue',
  'initiative_target_blocked',
  'issue_blocked',
  'issue_overdue',
  'milestone_overdue',
] as const;
type FindingType = (typeof AUDIT_FINDING_TYPES)[number];
const TYPE_ORDER = new Map<string, number>(AUDIT_FINDING_TYPES.map((t, i) => [t, i]));

const ID_KEYS = ['goal_id', 'kpi_id', 'initiative_id', 'initiative_target_id', 'issue_id', 'milestone_id', 'project_id'] as const;
type Ids = Partial<Record<(typeof ID_KEYS)[number], string | null>>;

const DANGLING_REASON: Record<string, string> = {
  project_archived: 'its project is archived',
  issue_archived: 'the issue is archived',
  milestone_cancelled: 'the milestone is cancelled',
  project_not_linked: "the milestone's project is not linked to the initiative",
};

/**
 * One computed audit: every finding, sorted, before the severity filter, and the responses made
 * from it so far (by filter; the same object is returned again, so its serialization can be kept
 * too: see serializeOnce). Shared between requests: never mutated except to add a response.
 */
interface AuditResult {
  findings: readonly AuditFinding[];
  generatedAt: string;
  responses: Map<Severity | 'all', StrategyAuditResponse>;
}

/**
 * The strategy audit: structural gaps and health findings over active context, judged by the one
 * strategy-health module. Guests (and personal agents of guests) get 403. Owners and admins see
 * organization-wide evidence; other non-guests see records and work of readable projects plus
 * organization-level strategy and projectless issues. `?severity=` keeps one severity (400 otherwise).
 *
 * Computed audits are kept per process (read-models.ts: STRATEGY_AUDIT) by organization and the caller's visibility
 * ('all', or the readable project ids as the access policy gives them, decided per request), and
 * trusted while the organization's 'issues' and 'strategy' data versions (bumped at the commit of
 * every change to a table the audit reads; migrations 1765000000000, 1765100000000) are unchanged,
 * for at most STRATEGY_AUDIT_CACHE_MAX_AGE_MS (default DEFAULT_STRATEGY_AUDIT_CACHE_MAX_AGE_MS,
 * 60 s): the findings depend on the clock as well as the data (stale after N hours, off pace,
 * overdue, stalled), which no version sees change, so a finding that becomes due by the passing of
 * time alone shows up at most that late (`summary.generated_at` is when the served audit was
 * evaluated); data changes show at once. The severity filter, counts and summary are derived per
 * request from the kept, unfiltered findings. READ_CACHE=off computes every request.
 */
@QueryHandler(StrategyAuditQuery)
export class StrategyAuditHandler implements IQueryHandler<StrategyAuditQuery, StrategyAuditResponse> {
  constructor(
    private readonly access: AccessPolicyService,
    private readonly loader: StrategyHealthRepository,
    private readonly clock: Clock,
    private readonly readModels: ReadModels,
    private readonly pending: PendingFormulaRecalculations,
  ) {}

  async execute({ actor, query }: StrategyAuditQuery): Promise<StrategyAuditResponse> {
    const severity = query.severity;
    if (severity !== undefined && (typeof severity !== 'string' || !(AUDIT_SEVERITIES as readonly string[]).includes(severity))) {
      throw Errors.validation(`severity must be one of ${AUDIT_SEVERITIES.join(', ')}`);
    }
    await this.access.assertOrgWideMember(actor, 'Guests cannot read the strategy audit');
    const readable = await this.access.readableProjects(actor);
    const projects = readable === 'all' ? null : [...readable].sort();
    const orgId = actor.orgId;
    const result = await this.audit(orgId, projects);
    return this.respond(result, severity as Severity | undefined);
  }

  /** The unfiltered audit of `orgId` as seen with `projects` (null = every project): kept, or computed. */
  private async audit(orgId: string, projects: string[] | null): Promise<AuditResult> {
    // formula KPI values this process is still recalculating belong to writes already answered
    await this.pending.settle();
    const visibility = projects === null ? 'all' : createHash('sha256').update(projects.join(',')).digest('base64url');
    return this.readModels.serve(STRATEGY_AUDIT, orgId, visibility, () => this.compute(orgId, projects));
  }

  /** The audit's response from a computed result (made once per filter): the severity filter, counts and summary. */
  private respond(result: AuditResult, severity: Severity | undefined): StrategyAuditResponse {
    let response = result.responses.get(severity ?? 'all');
    if (!response) {
      response = this.response(result, severity);
      result.responses.set(severity ?? 'all', response);
    }
    return response;
  }

  private response(result: AuditResult, severity: Severity | undefined): StrategyAuditResponse {
    const ordered = severity ? result.findings.filter((f) => f.severity === severity) : (result.findings as AuditFinding[]);
    const counts = Object.fromEntries(AUDIT_FINDING_TYPES.map((t) => [t, 0])) as Record<string, number>;
    const bySeverity: Record<Severity, number> = { critical: 0, warning: 0, info: 0 };
    for (const f of ordered) {
      counts[f.type]++;
      bySeverity[f.severity]++;
    }
    return {
      findings: ordered,
      summary: {
        total: ordered.length,
        ...bySeverity,
        text: ordered.length
          ? `${ordered.length} finding(s): ${bySeverity.critical} critical, ${bySeverity.warning} warning, ${bySeverity.info} info.`
          : 'No findings: the strategy chain is complete and healthy.',
        generated_at: result.generatedAt,
      },
      counts_by_type: counts,
    };
  }

  /** Loads and judges the organization's strategy (every finding, sorted). */
  async compute(orgId: string, projects: string[] | null): Promise<AuditResult> {
    const now = this.clock.now();
    const today = now.toISOString().slice(0, 10);
    // linkedWork: initiatives in HEALTH_INITIATIVE_STATUSES (the only ones judged below), their
    // dangling links and troubled issues, from one statement that builds the issue links once
    const [goals, kpis, { initiatives, dangling, issues }, milestones, targets] = await Promise.all([
      this.loader.goals(orgId, projects),
      this.loader.kpis(orgId, projects),
      this.loader.linkedWork(orgId, projects, today),
      this.loader.overdueMilestones(orgId, projects, today),
      this.loader.targets(orgId, projects),
    ]);

    const out: AuditFinding[] = [];
    const add = (type: FindingType, sev: Severity, title: string, message: string, fix: string, ids: Ids) => {
      const f: AuditFinding = { type, severity: sev, title, message, suggested_fix: fix };
      for (const k of ID_KEYS) if (ids[k]) f[k] = ids[k]!;
      out.push(f);
    };
    const goalStatus = new Map(goals.map((g) => [g.id, g.status]));

    // structural
    for (const g of goals) {
      if (!H.ACTIVE_GOAL_STATUSES.includes(g.status)) continue;
      const ids = { goal_id: g.id, project_id: g.projectId };
      if (g.kpiCount === 0) {
        add(
          'goal_missing_kpi',
          'warning',
          `Goal "${g.title}" has no KPI`,
          'Without a KPI nobody can tell whether the goal is being reached.',
          'Create a KPI with goal_id set to this goal (POST /kpis), with a target value and date.',
          ids,
        );
      }
      if (g.initiativeCount === 0) {
        add(
          'goal_missing_initiative',
          'warning',
          `Goal "${g.title}" has no initiative`,
          'No initiative is working towards this goal, so nothing moves it.',
          'Create an initiative with goal_id set to this goal (POST /initiatives), or pause the goal.',
          ids,
        );
      }
    }
    for (const n of initiatives) {
      if (!H.HEALTH_INITIATIVE_STATUSES.includes(n.status)) continue;
      if (!n.goalId) {
        add(
          'initiative_orphaned',
          'warning',
          `Initiative "${n.title}" serves no goal`,
          'Work on an initiative without a goal cannot be weighed against the strategy.',
          'Set goal_id on the initiative (PATCH /initiatives/{id}), or cancel it if it no longer matters.',
          { initiative_id: n.id, project_id: n.projectId },
        );
      }
    }
    for (const k of kpis) {
      if (!k.goalId) {
        add(
          'kpi_orphaned',
          'info',
          `KPI "${k.name}" belongs to no goal`,
          'A KPI without a goal is measured but steers nothing.',
          'Set goal_id on the KPI (PATCH /kpis/{id}), or delete it if nobody uses it.',
          { kpi_id: k.id, project_id: k.projectId },
        );
      }
    }
    for (const d of dangling) {
      const ids = { initiative_id: d.initiativeId, project_id: d.projectId, issue_id: d.issueId, milestone_id: d.milestoneId };
      const why = DANGLING_REASON[d.reason] ?? d.reason;
      if (d.kind === 'project') {
        add(
          'dangling_initiative_project',
          'warning',
          `Initiative "${d.initiativeTitle}" links an archived project`,
          `The link no longer leads to live work: ${why}.`,
          'Unlink the project from the initiative (DELETE /initiatives/{id}/projects) or unarchive it.',
          ids,
        );
      } else if (d.kind === 'issue') {
        add(
          'dangling_initiative_issue',
          'warning',
          `Initiative "${d.initiativeTitle}" links an issue that is gone from active work`,
          `The link no longer counts as execution: ${why}.`,
          'Unlink the issue (DELETE /initiatives/{id}/issues/{issueId}) or restore it.',
          ids,
        );
      } else {
        add(
          'dangling_initiative_milestone',
          'warning',
          `Initiative "${d.initiativeTitle}" links a milestone outside its scope`,
          `The link is dangling: ${why}.`,
          "Link the milestone's project to the initiative, or unlink the milestone (DELETE /initiatives/{id}/milestones/{milestoneId}).",
          ids,
        );
      }
    }

    // KPI health: standalone KPIs and KPIs of active goals
    for (const k of kpis) {
      if (k.goalId && !H.ACTIVE_GOAL_STATUSES.includes(goalStatus.get(k.goalId) ?? k.goalStatus ?? '')) continue;
      const ids = { kpi_id: k.id, goal_id: k.goalId, project_id: k.projectId };
      if (H.isKpiUnrecorded(k)) {
        add(
          'kpi_unrecorded',
          'warning',
          `KPI "${k.name}" has never been recorded`,
          'Without a measurement there is no baseline, no pace and no staleness to judge.',
          'Record the current value (POST /kpis/{id}/snapshots) or connect an HTTP sync.',
          ids,
        );
      }
      if (H.isKpiMissingTarget(k)) {
        add(
          'kpi_missing_target',
          'warning',
          `KPI "${k.name}" has no target`,
          'Without a target value the KPI cannot be on or off pace.',
          'Set target_value (and target_date) on the KPI (PATCH /kpis/{id}).',
          ids,
        );
      }
      if (H.isKpiStale(k, now)) {
        const hours = k.staleAfterHours ?? H.DEFAULT_KPI_STALE_AFTER_HOURS;
        add(
          'kpi_stale',
          'warning',
          `KPI "${k.name}" is stale`,
          `No snapshot for more than ${hours} hours (last ${k.lastRecordedAt!.toISOString()}); decisions rest on old data.`,
          'Record a fresh snapshot (POST /kpis/{id}/snapshots) or check its sync.',
          ids,
        );
      }
      const pace = H.kpiPace(k, now);
      if (pace?.offPace) {
        add(
          'kpi_off_pace',
          pace.missed ? 'critical' : 'warning',
          `KPI "${k.name}" is off pace`,
          pace.missed
            ? `The target date has passed at ${pace.actual} against a target of ${pace.target}.`
            : `At ${pace.actual} it should be about ${Math.round(pace.expected * 100) / 100} on the way from ${pace.baseline} to ${pace.target}.`,
          'Review the initiatives expected to move this KPI: add or unblock work, or revise the target.',
          ids,
        );
      }
    }

    // initiative health
    for (const n of initiatives) {
      if (!H.HEALTH_INITIATIVE_STATUSES.includes(n.status)) continue;
      const ids = { initiative_id: n.id, goal_id: n.goalId, project_id: n.projectId };
      if (n.impactCount === 0) {
        add(
          'initiative_missing_impact',
          'info',
          `Initiative "${n.title}" names no KPI it should move`,
          'Without an expected KPI impact nobody can tell whether the initiative worked.',
          'Link a KPI with its expected impact (POST /initiatives/{id}/kpi-impacts).',
          ids,
        );
      }
      if (H.isInitiativeMissingExecution(n)) {
        add(
          'initiative_missing_execution',
          'warning',
          `Initiative "${n.title}" has no linked work`,
          'No issue or milestone executes this initiative.',
          'Link issues or milestones (POST /initiatives/{id}/issues, /milestones), or create the first issue.',
          ids,
        );
      }
      if (H.isInitiativeStalled(n, now)) {
        const over = H.isPastDate(n.targetDate, now);
        add(
          'initiative_stalled',
          over ? 'critical' : 'warning',
          `Initiative "${n.title}" is stalled`,
          over
            ? `Its target date ${n.targetDate} has passed with ${n.openIssues} open linked issue(s).`
            : `${n.openIssues} linked issue(s) are open but none changed in ${H.INITIATIVE_STALL_DAYS} days.`,
          'Pick up or reassign the open linked work, or pause the initiative.',
          ids,
        );
      }
    }
    for (const t of targets) {
      const ids = { initiative_target_id: t.id, initiative_id: t.initiativeId, project_id: t.projectId };
      if (H.isTargetMissingExecution(t)) {
        add(
          'initiative_target_missing_execution',
          'warning',
          `Target "${t.title}" has no linked work`,
          'Nothing is linked to deliver this target.',
          'Link issues or milestones to the target (POST /initiatives/{id}/targets/{targetId}/issues).',
          ids,
        );
      }
      if (H.isTargetOverdue(t, now)) {
        add(
          'initiative_target_overdue',
          'critical',
          `Target "${t.title}" is overdue`,
          `Its date ${t.targetDate} has passed and it is not met.`,
          'Finish or re-plan the linked work, or move the target date.',
          ids,
        );
      }
      if (H.isTargetBlocked(t)) {
        add(
          'initiative_target_blocked',
          'critical',
          `Target "${t.title}" is blocked`,
          `${t.blockedIssues} linked issue(s) wait on unsatisfied dependencies.`,
          'Resolve the blocking issues first.',
          ids,
        );
      }
    }

    // execution
    for (const i of issues) {
      const ids = { issue_id: i.id, initiative_id: i.initiativeId, project_id: i.projectId };
      if (H.isIssueBlocked(i)) {
        add(
          'issue_blocked',
          'warning',
          `Issue "${i.title}" is blocked`,
          'A dependency of this linked issue is not satisfied, so the work cannot move.',
          'Finish or re-plan the blocking issue (GET /issues/{id}/dependencies).',
          ids,
        );
      }
      if (H.isIssueOverdue(i, now)) {
        add(
          'issue_overdue',
          H.overdueSeverity(i.dueDate!, now),
          `Issue "${i.title}" is overdue`,
          `It was due ${i.dueDate} and is still ${i.status}.`,
          'Finish it, or set a realistic due date.',
          ids,
        );
      }
    }
    for (const m of milestones) {
      if (!H.isMilestoneOverdue(m, now)) continue;
      add(
        'milestone_overdue',
        H.overdueSeverity(m.targetDate!, now),
        `Milestone "${m.name}" is overdue`,
        `Its target date ${m.targetDate} has passed and it is still ${m.status}.`,
        'Complete the milestone, move its open issues, or set a new target date.',
        { milestone_id: m.id, initiative_id: m.initiativeId, project_id: m.projectId },
      );
    }

    // one precomputed key per finding (severity rank, type order, ids), compared as plain strings
    const key = (f: AuditFinding) => `${RANK[f.severity]}${String(TYPE_ORDER.get(f.type)).padStart(2, '0')}${ID_KEYS.map((k) => f[k] ?? '').join('|')}`;
    const sorted = out.map((f) => ({ f, k: key(f) })).sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
    return { findings: sorted.map((x) => x.f), generatedAt: now.toISOString(), responses: new Map() };
  }
}
