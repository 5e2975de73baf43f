import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { Actor } from '../../common/auth/principal';
import { type ProjectHealthRow, ProjectStatusRepository } from '../project-status/project-status.repository';
import { Clock } from '../../common/clock/clock';
import { NOTIFICATION_EVENT_TYPES } from '../notifications/notification-kinds';
import { NotificationsReader } from '../notifications/notifications.reader';
import type { ReaderScope } from '../notifications/notifications.repository';
import { toNotificationResponse, type NotificationRow } from '../notifications/notifications.mapper';
import * as H from '../strategy-health/strategy-health';
import { type GoalRow, type KpiRow, StrategyHealthRepository, type TargetRow } from '../strategy-health/strategy-health.repository';
import { WebhooksRepository } from '../webhooks/webhooks.repository';
import { type ExecutionAttentionEntry, ExecutionAttentionProvider } from './execution-attention.provider';
import type { HeartbeatPolicy, SignalScope } from './heartbeat-policy';
import { signalPasses } from './heartbeat-policy';
import {
  type HbDependency,
  type HbInitiative,
  type HbIssue,
  type HbMilestone,
  type HbProject,
  type HbSnapshot,
  HeartbeatRepository,
  type OrgDependency,
  type OrgInitiative,
  readerOf,
  type Visibility,
} from './heartbeat.repository';
import { type Action, type ActionInput, recommend } from './heartbeat-recommendation';

export type Severity = 'critical' | 'warning' | 'info';
export type Category = 'task' | 'initiative' | 'KPI' | 'project';

/** A signal (full view) and, for dependency signals, its group fields (compact view). */
export interface Signal {
  id: string;
  type: string;
  category: Category;
  severity: Severity;
  message: string;
  metadata: Record<string, unknown>;
  blocker?: Record<string, unknown> | null;
  release_condition?: Record<string, unknown> | null;
  issues?: Array<Record<string, unknown>>;
  suggested_read?: string;
  /** not serialized: policy scope and recommendation inputs */
  scope: SignalScope;
  urgency: number;
}

/** Bounds of what one briefing carries. */
export const BRIEFING_LIMITS = {
  signals: 100,
  attention: 100,
  fullAttention: 50,
  issuesPerGroup: 10,
  goals: 50,
  kpis: 200,
  fullAssigned: 100,
  execution: 25,
} as const;

const SEV_RANK: Record<Severity, number> = { critical: 0, warning: 1, info: 2 };
const TYPE_ORDER = [
  'issue_blocked',
  'initiative_target_overdue',
  'initiative_target_blocked',
  'initiative_target_due_soon',
  'milestone_overdue',
  'project_off_track',
  'kpi_off_pace',
  'kpi_stale',
  'initiative_stalled',
  'issue_stale',
  'webhook_failing',
];
const CATEGORY_KEY: Record<Category, SignalScope['category']> = { task: 'task', initiative: 'initiative', KPI: 'kpi', project: 'project' };
const DAY_MS = 86_400_000;

export const signalId = (type: string, key: string): string => `sig_${createHash('sha256').update(`${type}|${key}`).digest('base64url').slice(0, 22)}`;

/**
 * What the heartbeat reads for the whole organization, whoever asks (read model HEARTBEAT_WORK,
 * kept once per organization and version, for both views): initiatives with every linked issue,
 * and the unsatisfied dependencies (either null when there are too many: then each visibility
 * reads its own). Each visibility's context derives its part from it.
 */
export interface HeartbeatWork {
  weight: number;
  initiatives: OrgInitiative[] | null;
  deps: OrgDependency[] | null;
}

/**
 * The goals and KPIs a visibility reads (read model HEARTBEAT_STRATEGY, versioned by strategy
 * records only: an issue write keeps it).
 */
export interface HeartbeatStrategy {
  weight: number;
  goals: GoalRow[];
  kpis: KpiRow[];
}

/** Kept parts a context is built from (absent: read by the context itself). */
export interface ContextParts {
  work?: () => Promise<HeartbeatWork>;
  strategy?: () => Promise<HeartbeatStrategy>;
}

/** The visibility-wide part of a briefing (HeartbeatComposer.context), loaded at `now`. */
export interface HeartbeatContext {
  now: Date;
  /** About the number of records it holds (the read model's weight). */
  weight: number;
  goals: GoalRow[];
  kpis: KpiRow[];
  targets: TargetRow[];
  initiatives: HbInitiative[];
  deps: HbDependency[];
  milestones: HbMilestone[];
  snaps: HbSnapshot[];
  projects: HbProject[];
}

/** The caller's attention part of a briefing (HeartbeatComposer.attention; read model HEARTBEAT_ATTENTION). */
export interface HeartbeatAttention {
  /** About the number of records it holds (the read model's weight). */
  weight: number;
  unread: { items: NotificationRow[]; total: number; counts: { total: number; by_type: Record<string, number> } } | null;
  execution: { open: ExecutionAttentionEntry[]; resolved_unread: ExecutionAttentionEntry[] };
}

/** The caller's own reads a briefing is composed from besides the context (HeartbeatComposer.own). */
export interface OwnReads {
  assigned: HbIssue[];
  failing: Awaited<ReturnType<WebhooksRepository['failing']>>;
  unread: HeartbeatAttention['unread'];
  execution: HeartbeatAttention['execution'];
  offTrack: ProjectHealthRow[];
}

/** Everything one briefing is made of, before the compact/full rendering. */
export interface Briefing {
  now: Date;
  agent: { id: string; display_name: string };
  signals: Signal[];
  attention: NotificationRow[];
  attentionTotal: number;
  summary: { total: number; by_type: Record<string, number> };
  execution: { open: ExecutionAttentionEntry[]; resolved_unread: ExecutionAttentionEntry[] };
  recommended: Action | null;
  suppressedExpectedWaits: number;
  full?: Record<string, unknown>;
}

/**
 * Composes the heartbeat of one caller (an agent, or a human previewing as an agent) under one
 * policy: loads through the read models (a fixed number of set-based statements, run together),
 * judges time with the strategy audit's rules (strategy-health.ts), applies access and policy,
 * and orders everything deterministically (severity, type, id).
 */
@Injectable()
export class HeartbeatComposer {
  constructor(
    private readonly health: StrategyHealthRepository,
    private readonly repo: HeartbeatRepository,
    private readonly notifications: NotificationsReader,
    private readonly webhooks: WebhooksRepository,
    private readonly executions: ExecutionAttentionProvider,
    private readonly projectStatus: ProjectStatusRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * What the heartbeat reads for everyone who sees the same projects (`v`), at one instant: goals,
   * KPIs, initiative targets, initiatives (readable-only aggregates), unsatisfied dependencies,
   * overdue milestones, the KPI snapshots the view shows, and projects with their board columns.
   * Kept per visibility and view (read model HEARTBEAT_CONTEXT): nothing in it is the caller's own.
   */
  async context(orgId: string, v: Visibility, full: boolean, parts: ContextParts = {}): Promise<HeartbeatContext> {
    const now = this.clock.now();
    const today = now.toISOString().slice(0, 10);
    const { readable } = v;
    const stalledBefore = new Date(now.getTime() - H.INITIATIVE_STALL_DAYS * DAY_MS);
    // initiatives and dependencies from the organization's kept work (one computation per version
    // for every visibility and view), goals and KPIs kept by strategy version, all read beside
    // the rest: one round trip
    const shared = parts.work ? parts.work() : Promise.resolve(null);
    const [{ goals, kpis }, targets, initiatives, deps, milestones, projects, recent] = await Promise.all([
      parts.strategy ? parts.strategy() : this.strategy(orgId, readable),
      this.health.targets(orgId, readable, undefined, v.projectless),
      shared.then((w) =>
        w?.initiatives ? HeartbeatRepository.initiativesFor(w.initiatives, v, stalledBefore, full) : this.repo.initiatives(orgId, v, stalledBefore),
      ),
      shared.then((w) => (w?.deps ? HeartbeatRepository.dependenciesFor(w.deps, v) : this.repo.dependencies(orgId, v))),
      this.repo.overdueMilestones(orgId, v, today),
      this.repo.projects(orgId, readable),
      // full: the first BRIEFING_LIMITS.kpis visible KPIs' latest; compact: the attributed ones of every visible KPI
      this.repo.visibleSnapshots(orgId, v, full ? BRIEFING_LIMITS.kpis : null, !full),
    ]);
    // the snapshots the view shows: every shown KPI's latest (full), or the attributed ones of stale / off-pace KPIs of active goals (compact)
    const goalStatus = new Map(goals.map((g) => [g.id, g.status]));
    const kpiActive = (k: KpiRow) => !k.goalId || H.ACTIVE_GOAL_STATUSES.includes(goalStatus.get(k.goalId) ?? k.goalStatus ?? '');
    const wanted = full
      ? null
      : new Set(kpis.filter((k) => readerOf(v)(k.projectId) && kpiActive(k) && (H.isKpiStale(k, now) || H.kpiPace(k, now)?.offPace)).map((k) => k.id));
    const snaps = wanted ? recent.filter((s) => wanted.has(s.kpiId)) : recent;
    const weight =
      1 +
      goals.length +
      kpis.length +
      targets.length +
      deps.length +
      milestones.length +
      snaps.length +
      projects.length +
      initiatives.reduce((n, i) => n + 1 + i.linked.length, 0);
    return { now, weight, goals, kpis, targets, initiatives, deps, milestones, snaps, projects };
  }

  /** The goals and KPIs of `readable` projects (and organization-level ones: each caller filters). */
  async strategy(orgId: string, readable: string[] | null): Promise<HeartbeatStrategy> {
    const [goals, kpis] = await Promise.all([this.health.goals(orgId, readable), this.health.kpis(orgId, readable)]);
    return { weight: 1 + goals.length + kpis.length, goals, kpis };
  }

  /** Readable projects whose latest status update is off track (kept per readable set: read model HEARTBEAT_OFF_TRACK). */
  offTrack(orgId: string, readable: string[] | null): Promise<ProjectHealthRow[]> {
    return this.projectStatus.offTrack(orgId, readable ?? 'all');
  }

  /** The organization's work (HeartbeatWork), for every visibility and view. */
  async work(orgId: string): Promise<HeartbeatWork> {
    const [initiatives, deps] = await Promise.all([this.repo.orgInitiatives(orgId), this.repo.orgDependencies(orgId)]);
    const weight = 1 + (initiatives ?? []).reduce((n, i) => n + 1 + i.linked.length, 0) + (deps?.length ?? 0);
    return { weight, initiatives, deps };
  }

  /**
   * The caller's unread attention (notifications: page, total and counts; `null` when the policy
   * turns the section off) and its execution attention, under `v`. Kept per caller and visibility
   * (read model HEARTBEAT_ATTENTION): an ordinary issue write keeps it.
   */
  async attention(actor: Actor, v: Visibility, withNotifications: boolean): Promise<HeartbeatAttention> {
    const reader: ReaderScope = {
      orgId: actor.orgId,
      memberId: actor.memberId,
      allProjects: v.readable === null,
      projectIds: v.readable ?? [],
      projectless: v.projectless,
    };
    const [unread, execution] = await Promise.all([
      withNotifications ? this.notifications.unreadSummaryIn(reader, { limit: BRIEFING_LIMITS.attention, offset: 0 }) : Promise.resolve(null),
      this.executions.forAgent(actor, BRIEFING_LIMITS.execution, v),
    ]);
    return { weight: 1 + (unread?.items.length ?? 0) + execution.open.length + execution.resolved_unread.length, unread, execution };
  }

  /**
   * The caller's own reads besides the context, all at once (one round trip; started beside the
   * context's): assigned work, failing webhooks (owners/admins), the attention part (kept or read
   * here) and the off-track projects of its readable set (kept or read here).
   */
  async own(
    actor: Actor,
    policy: HeartbeatPolicy,
    v: Visibility,
    kept: { attention?: () => Promise<HeartbeatAttention>; offTrack?: () => Promise<ProjectHealthRow[]> } = {},
  ): Promise<OwnReads> {
    const [assigned, failing, attention, offTrack] = await Promise.all([
      this.repo.assigned(actor.orgId, v, actor.memberId),
      actor.isOwnerOrAdmin ? this.webhooks.failing(actor.orgId, 1) : Promise.resolve([]),
      kept.attention ? kept.attention() : this.attention(actor, v, policy.sections.attention),
      kept.offTrack ? kept.offTrack() : this.offTrack(actor.orgId, v.readable),
    ]);
    return { assigned, failing, unread: policy.sections.attention ? attention.unread : null, execution: attention.execution, offTrack };
  }

  /**
   * The caller's briefing under `policy` from a context of the caller's visibility `v` and the
   * caller's own reads (`own`): signals, policy, order, bounds and the recommendation. Judged at
   * the context's instant.
   */
  compose(actor: Actor, policy: HeartbeatPolicy, full: boolean, v: Visibility, ctx: HeartbeatContext, own: OwnReads): Briefing {
    const now = ctx.now;
    const { readable, projectless } = v;
    const canRead = readerOf(v);
    const sec = policy.sections;
    const { goals, kpis, targets, initiatives, deps, milestones, snaps } = ctx;
    const { assigned, failing, unread, execution, offTrack } = own;

    // visibility of strategy records: org-level ones need a baseline (non-guests); set-bound initiatives any readable project
    const visibleGoals = goals.filter((g) => canRead(g.projectId));
    const visibleKpis = kpis.filter((k) => canRead(k.projectId));
    const iniVisible = (n: HbInitiative) =>
      n.projectId ? canRead(n.projectId) : n.projectIds.length ? readable === null || n.projectIds.some((p) => canRead(p)) : projectless;
    const visibleInis = initiatives.filter(iniVisible);
    const iniById = new Map(visibleInis.map((n) => [n.id, n]));
    const goalStatus = new Map(goals.map((g) => [g.id, g.status]));
    const iniProjects = (n: HbInitiative) => [...new Set([n.projectId, ...n.projectIds].filter((p): p is string => !!p && canRead(p)))].sort();
    const visibleIniIds = (ids: string[]) => ids.filter((id) => iniById.has(id));

    const signals: Signal[] = [];
    const push = (s: Omit<Signal, 'id'> & { key: string }) => {
      const { key, ...rest } = s;
      signals.push({ id: signalId(s.type, key), ...rest });
    };

    // ---- dependency groups (expected waits suppressed)
    const expectedWaitIssues = new Set<string>();
    const alertingIssues = new Set<string>();
    const groups = new Map<
      string,
      { blocker: HbDependency['blocker']; release: HbDependency['release']; facts: Array<{ d: HbDependency; reasons: string[] }> }
    >();
    for (const d of deps) {
      const reasons: string[] = [];
      const x = { status: d.blocked.status, archived: false, dueDate: d.blocked.dueDate };
      if (!d.blocker) reasons.push('blocker_unreadable');
      else {
        const b = { status: d.blocker.status, archived: d.blocker.archived, dueDate: d.blocker.dueDate, blocked: false, updatedAt: d.blocker.updatedAt };
        if (H.isIssueOverdue(b, now)) reasons.push('blocker_overdue');
        if (H.isIssueStale(b, now)) reasons.push('blocker_stalled');
      }
      if (H.isIssueOverdue({ ...x, blocked: true }, now)) reasons.push('commitment_overdue');
      else if (H.isIssueDueSoon(x, now)) reasons.push('deadline_threatened');
      if (d.blocked.gate) reasons.push('gate');
      if (!reasons.length) {
        expectedWaitIssues.add(d.blockedId);
        continue;
      }
      alertingIssues.add(d.blockedId);
      const key = d.blocker ? d.blockerId : `restricted:${d.blockedId}`;
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { blocker: d.blocker, release: d.release, facts: [] }));
      g.facts.push({ d, reasons });
    }
    let suppressed = 0;
    for (const id of expectedWaitIssues) if (!alertingIssues.has(id)) suppressed++;
    for (const [key, g] of groups) {
      const reasons = [...new Set(g.facts.flatMap((f) => f.reasons))].sort();
      const critical =
        (g.blocker?.dueDate && H.isPastDate(g.blocker.dueDate, now) && H.overdueSeverity(g.blocker.dueDate, now) === 'critical') ||
        g.facts.some((f) => f.d.blocked.dueDate && H.isPastDate(f.d.blocked.dueDate, now) && H.overdueSeverity(f.d.blocked.dueDate, now) === 'critical') ||
        reasons.includes('gate');
      const issues = g.facts.map((f) => f.d.blocked).sort((a, b) => a.priority - b.priority || a.number - b.number || (a.id < b.id ? -1 : 1));
      const who = g.blocker ? `"${g.blocker.title}" (${g.blocker.status}${g.blocker.owned ? '' : ', unowned'})` : 'an issue you cannot read';
      const release = g.release ? `release when it reaches "${g.release.label}"` : 'release when it is done';
      const blockerId = g.blocker?.id ?? null;
      const firstBlocked = issues[0];
      push({
        key,
        type: 'issue_blocked',
        category: 'task',
        severity: critical ? 'critical' : 'warning',
        message: `${issues.length} issue(s) wait on ${who}; ${release}. Why it alerts: ${reasons.join(', ')}.`,
        metadata: {
          blocker_issue_id: blockerId,
          blocked_issue_ids: issues.map((i) => i.id),
          reasons,
          assigned_to_you: issues.some((i) => assigned.some((a) => a.id === i.id)),
        },
        blocker: g.blocker
          ? {
              id: g.blocker.id,
              number: g.blocker.number,
              title: g.blocker.title,
              status: g.blocker.status,
              project_id: g.blocker.projectId,
              assignee_id: g.blocker.assigneeId,
              owned: g.blocker.owned,
            }
          : null,
        release_condition: g.release
          ? { column_id: g.release.columnId, key: g.release.key, label: g.release.label }
          : { column_id: null, key: 'done', label: null },
        issues: issues
          .slice(0, BRIEFING_LIMITS.issuesPerGroup)
          .map((i) => ({ id: i.id, number: i.number, title: i.title, status: i.status, project_id: i.projectId, due_date: i.dueDate })),
        suggested_read: blockerId
          ? `/api/orgs/${actor.orgId}/issues/${blockerId}/dependencies?view=chain&direction=downstream`
          : `/api/orgs/${actor.orgId}/issues/${firstBlocked.id}/dependencies?view=chain&direction=upstream`,
        scope: {
          category: 'task',
          projectIds: [...new Set(issues.map((i) => i.projectId).filter((p): p is string => !!p))],
          initiativeIds: [...new Set(issues.flatMap((i) => i.initiativeIds))],
          issues: issues.map((i) => ({ projectId: i.projectId, status: i.status })),
        },
        urgency: 1000 + (critical ? 100 : 0) + issues.length,
      });
    }

    // ---- KPIs (one canonical status each: stale data first, then pace); paused/cancelled goals emit nothing
    const kpiState = new Map<string, { stale: boolean; pace: H.KpiPace | null }>();
    for (const k of visibleKpis) {
      const pace = H.kpiPace(k, now);
      kpiState.set(k.id, { stale: H.isKpiStale(k, now), pace });
    }
    const kpiActive = (k: KpiRow) => !k.goalId || H.ACTIVE_GOAL_STATUSES.includes(goalStatus.get(k.goalId) ?? k.goalStatus ?? '');
    const linkedInis = (kpiId: string) =>
      visibleInis
        .filter((n) => n.impacts.some((x) => x.kpi_id === kpiId))
        .map((n) => ({ id: n.id, title: n.title, status: n.status, expected_impact: n.impacts.find((x) => x.kpi_id === kpiId)!.expected_impact }));
    const snapshotView = (s: (typeof snaps)[number]) => ({
      value: s.value,
      source: s.source,
      recorded_at: s.createdAt.toISOString(),
      attribution_note: s.attributionNote,
      attributed_to_initiative_id: s.initiativeId && iniById.has(s.initiativeId) ? s.initiativeId : null,
      attributed_to_issue_id: s.issueId && canRead(s.issueProjectId) ? s.issueId : null,
    });
    const attributed = (kpiId: string) =>
      snaps
        .filter((s) => s.kpiId === kpiId && (s.initiativeId || s.issueId || s.attributionNote))
        .slice(0, 3)
        .map(snapshotView);
    for (const k of visibleKpis) {
      if (!kpiActive(k)) continue;
      const st = kpiState.get(k.id)!;
      const inis = linkedInis(k.id);
      const scope: SignalScope = { category: 'kpi', projectIds: k.projectId ? [k.projectId] : [], initiativeIds: inis.map((n) => n.id), issues: [] };
      const metadata = { kpi_id: k.id, goal_id: k.goalId, project_id: k.projectId, linked_initiatives: inis, recent_attributed_snapshots: attributed(k.id) };
      if (st.stale) {
        const hours = k.staleAfterHours ?? H.DEFAULT_KPI_STALE_AFTER_HOURS;
        push({
          key: k.id,
          type: 'kpi_stale',
          category: 'KPI',
          severity: 'warning',
          message: `KPI "${k.name}" is stale: no snapshot for more than ${hours} hours (last ${k.lastRecordedAt!.toISOString()}).`,
          metadata: { ...metadata, last_recorded_at: k.lastRecordedAt!.toISOString(), stale_after_hours: hours, also_off_pace: !!st.pace?.offPace },
          scope,
          urgency: 300,
        });
      } else if (st.pace?.offPace) {
        const p = st.pace;
        push({
          key: k.id,
          type: 'kpi_off_pace',
          category: 'KPI',
          severity: p.missed ? 'critical' : 'warning',
          message: p.missed
            ? `KPI "${k.name}" missed its target date at ${p.actual} against a target of ${p.target}.`
            : `KPI "${k.name}" is off pace: at ${p.actual} it should be about ${Math.round(p.expected * 100) / 100} on the way from ${p.baseline} to ${p.target}.`,
          metadata: { ...metadata, current_value: p.actual, expected_value: Math.round(p.expected * 100) / 100, target_value: p.target, missed: p.missed },
          scope,
          urgency: p.missed ? 600 : 500,
        });
      }
    }

    // ---- initiatives (active only: paused/completed/cancelled emit nothing), counted from readable work
    const expectedByIni = new Map<string, number>();
    for (const d of deps) {
      if (!expectedWaitIssues.has(d.blockedId) || alertingIssues.has(d.blockedId)) continue;
      for (const id of d.blocked.initiativeIds) expectedByIni.set(id, (expectedByIni.get(id) ?? 0) + 1);
    }
    for (const n of visibleInis) {
      const row: H.InitiativeWorkRow = {
        status: n.status,
        targetDate: n.targetDate,
        linkedIssues: n.total,
        linkedMilestones: n.linkedMilestones,
        openIssues: n.open,
        lastIssueUpdateAt: n.lastIssueUpdateAt,
      };
      if (!H.isInitiativeStalled(row, now)) continue;
      // an aggregate made only of expected waits is suppressed too
      if ((expectedByIni.get(n.id) ?? 0) >= n.open) continue;
      const over = H.isPastDate(n.targetDate, now);
      push({
        key: n.id,
        type: 'initiative_stalled',
        category: 'initiative',
        severity: over ? 'critical' : 'warning',
        message: over
          ? `Initiative "${n.title}" is stalled: its target date ${n.targetDate} has passed with ${n.open} open linked issue(s).`
          : `Initiative "${n.title}" is stalled: ${n.open} linked issue(s) are open but none changed in ${H.INITIATIVE_STALL_DAYS} days.`,
        metadata: { initiative_id: n.id, goal_id: n.goalId, open_issues: n.open, blocked_issues: n.blocked, project_ids: iniProjects(n) },
        scope: { category: 'initiative', projectIds: iniProjects(n), initiativeIds: [n.id], issues: [] },
        urgency: over ? 450 : 250,
      });
    }

    // ---- initiative targets (stateful counts; gate targets never use pace language)
    for (const t of targets) {
      const n = iniById.get(t.initiativeId);
      if (!n || !H.HEALTH_INITIATIVE_STATUSES.includes(n.status)) continue;
      const state = `${t.currentValue ?? 0}/${t.targetValue ?? '?'} complete`;
      const what = t.mode === 'gate' ? `Gate target "${t.title}"` : `Target "${t.title}"`;
      const base = {
        initiative_target_id: t.id,
        initiative_id: t.initiativeId,
        mode: t.mode,
        current_value: t.currentValue,
        target_value: t.targetValue,
        target_date: t.targetDate,
      };
      const scope: SignalScope = { category: 'initiative', projectIds: iniProjects(n), initiativeIds: [n.id], issues: [] };
      if (H.isTargetOverdue(t, now)) {
        push({
          key: t.id,
          type: 'initiative_target_overdue',
          category: 'initiative',
          severity: 'critical',
          message: `${what} is overdue: ${state}, due ${t.targetDate}.`,
          metadata: base,
          scope,
          urgency: 900,
        });
      } else if (t.mode === 'gate' && H.isTargetDueSoon(t, now)) {
        const days = Math.max(0, Math.ceil((H.endOfDay(t.targetDate!) - now.getTime()) / DAY_MS));
        push({
          key: t.id,
          type: 'initiative_target_due_soon',
          category: 'initiative',
          severity: 'warning',
          message: `${what} is due soon: ${state}, due ${t.targetDate} (${days} day(s) left).`,
          metadata: { ...base, days_left: days },
          scope,
          urgency: 850 - days,
        });
      }
      if (H.isTargetBlocked(t)) {
        push({
          key: t.id,
          type: 'initiative_target_blocked',
          category: 'initiative',
          severity: 'critical',
          message: `${what} is blocked: ${t.blockedIssues} linked issue(s) wait on unsatisfied dependencies (${state}).`,
          metadata: { ...base, blocked_issues: t.blockedIssues },
          scope,
          urgency: 950,
        });
      }
    }

    // ---- milestones
    const msOverdue = new Map<string, number>();
    for (const m of milestones) {
      if (!H.isMilestoneOverdue(m, now)) continue;
      const inis = visibleIniIds(m.initiativeIds);
      const days = H.daysPast(m.targetDate, now);
      msOverdue.set(m.id, days);
      push({
        key: m.id,
        type: 'milestone_overdue',
        category: 'project',
        severity: H.overdueSeverity(m.targetDate, now),
        message: `Milestone "${m.name}" is overdue: its target date ${m.targetDate} has passed with ${m.openIssues} open issue(s) (${m.status}).`,
        metadata: {
          milestone_id: m.id,
          project_id: m.projectId,
          open_issues: m.openIssues,
          days_overdue: days,
          standalone: inis.length === 0,
          initiative_ids: inis,
        },
        scope: { category: 'project', projectIds: [m.projectId], initiativeIds: inis, issues: [] },
        urgency: days,
      });
    }

    // ---- projects whose latest status update is off track, where the caller has assigned work
    const assignedIn = new Map<string, number>();
    for (const i of assigned) if (i.projectId) assignedIn.set(i.projectId, (assignedIn.get(i.projectId) ?? 0) + 1);
    for (const p of offTrack) {
      const mine = assignedIn.get(p.project_id);
      if (!mine || !p.u_id || !p.u_created_at) continue;
      const since = new Date(p.u_created_at);
      push({
        key: p.u_id,
        type: 'project_off_track',
        category: 'project',
        severity: 'warning',
        message: `Project "${p.project_name}" is off track since its status update of ${since.toISOString().slice(0, 10)}; you have ${mine} assigned issue(s) in it.`,
        metadata: { project_id: p.project_id, status_update_id: p.u_id, status: 'off_track', updated_at: since.toISOString(), assigned_issues: mine },
        suggested_read: `/api/orgs/${actor.orgId}/projects/${p.project_id}/status-updates`,
        scope: { category: 'project', projectIds: [p.project_id], initiativeIds: [], issues: [] },
        urgency: Math.floor((now.getTime() - since.getTime()) / DAY_MS),
      });
    }

    // ---- the caller's own stale work
    for (const i of assigned) {
      if (!H.isIssueStale({ status: i.status, archived: false, updatedAt: i.updatedAt }, now)) continue;
      const days = Math.floor((now.getTime() - i.updatedAt.getTime()) / DAY_MS);
      push({
        key: i.id,
        type: 'issue_stale',
        category: 'task',
        severity: 'warning',
        message: `Your issue "${i.title}" is ${i.status} but has not changed for ${days} days.`,
        metadata: { issue_id: i.id, project_id: i.projectId, status: i.status, days_unchanged: days },
        scope: {
          category: 'task',
          projectIds: i.projectId ? [i.projectId] : [],
          initiativeIds: i.initiativeIds,
          issues: [{ projectId: i.projectId, status: i.status }],
        },
        urgency: days,
      });
    }

    // ---- webhooks (organization owners/admins administer them)
    for (const w of failing) {
      if (!w.enabled) continue;
      if (w.lastSuccessAt && w.lastFailureAt && w.lastSuccessAt > w.lastFailureAt) continue;
      push({
        key: w.webhookId,
        type: 'webhook_failing',
        category: 'project',
        severity: w.consecutiveFailures >= 5 ? 'critical' : 'warning',
        message: `Webhook to ${w.destinationDisplay} is failing: ${w.consecutiveFailures} consecutive failed attempt(s).`,
        metadata: {
          webhook_id: w.webhookId,
          destination_display: w.destinationDisplay,
          consecutive_failures: w.consecutiveFailures,
          last_failure_at: w.lastFailureAt?.toISOString() ?? null,
        },
        suggested_read: `/api/webhooks/${w.webhookId}/deliveries`,
        scope: { category: 'project', projectIds: [], initiativeIds: [], issues: [] },
        urgency: w.consecutiveFailures,
      });
    }

    // ---- policy, order, bound
    const columnKeys = new Map<string, string>();
    const projects = ctx.projects;
    for (const p of projects) for (const c of p.columns) columnKeys.set(c.id, c.key);
    const kept = sec.signals ? signals.filter((s) => signalPasses(policy, s.scope, columnKeys)) : [];
    const order = (s: Signal) => `${SEV_RANK[s.severity]}${String(TYPE_ORDER.indexOf(s.type)).padStart(2, '0')}${s.id}`;
    kept.sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
    const bounded = kept.slice(0, BRIEFING_LIMITS.signals);

    const input: ActionInput = {
      orgId: actor.orgId,
      signals: bounded,
      assigned: sec.assigned_issues ? assigned : [],
      kpis: new Map(visibleKpis.map((k) => [k.id, k])),
      initiatives: iniById,
      msOverdue,
    };
    const recommended = recommend(input);

    const zeros = Object.fromEntries(NOTIFICATION_EVENT_TYPES.map((t) => [t, 0])) as Record<string, number>;
    const briefing: Briefing = {
      now,
      agent: { id: actor.memberId, display_name: actor.displayName },
      signals: bounded,
      attention: unread?.items ?? [],
      attentionTotal: unread?.total ?? 0,
      // attention off: the same shape, every count zero
      summary: unread?.counts ?? { total: 0, by_type: zeros },
      execution: execution as Briefing['execution'],
      recommended,
      suppressedExpectedWaits: suppressed,
    };

    if (full) {
      const kpiView = (k: KpiRow) => {
        const st = kpiState.get(k.id)!;
        const recent = snaps.filter((s) => s.kpiId === k.id).map(snapshotView);
        const trend = recent.length < 2 ? 'unknown' : recent[0].value > recent[1].value ? 'up' : recent[0].value < recent[1].value ? 'down' : 'flat';
        return {
          kpi: { id: k.id, name: k.name, current_value: k.currentValue, target_value: k.targetValue },
          pace_needed: st.pace ? Math.round(st.pace.expected * 100) / 100 : null,
          pace_actual: st.pace ? st.pace.actual : k.currentValue,
          trend,
          is_stale: st.stale,
          is_off_pace: !!st.pace?.offPace,
          snapshots_recent: recent,
        };
      };
      const iniView = (n: HbInitiative) => ({
        initiative: { id: n.id, title: n.title, status: n.status },
        expected_impacts: n.impacts.filter((x) => visibleKpis.some((k) => k.id === x.kpi_id)),
        total_issues: n.total,
        completed_issues: n.completed,
        stalled_issues: n.stalled,
        blocked_issues: n.blocked,
        project_ids: iniProjects(n),
        linked_issues: n.linked.map(issueView),
      });
      const contextIds = this.contextProjects(actor, readable, assigned, policy);
      const goalsOut = sec.goals
        ? visibleGoals
            .filter((g) => g.status !== 'cancelled')
            .slice(0, BRIEFING_LIMITS.goals)
            .map((g) => ({
              goal: { id: g.id, title: g.title, status: g.status, target_date: g.targetDate },
              days_remaining: g.targetDate ? Math.ceil((H.endOfDay(g.targetDate) - now.getTime()) / DAY_MS) : null,
              kpis: visibleKpis.filter((k) => k.goalId === g.id).map(kpiView),
              initiatives: visibleInis.filter((n) => n.goalId === g.id).map(iniView),
            }))
        : [];
      briefing.full = {
        goals: goalsOut,
        standalone_kpis: sec.standalone_kpis
          ? visibleKpis
              .filter((k) => !k.goalId)
              .slice(0, BRIEFING_LIMITS.kpis)
              .map(kpiView)
          : [],
        standalone_initiatives: sec.standalone_initiatives ? visibleInis.filter((n) => !n.goalId).map(iniView) : [],
        assigned_issues: sec.assigned_issues ? assigned.slice(0, BRIEFING_LIMITS.fullAssigned).map(issueView) : [],
        project_context: sec.project_context
          ? projects
              .filter((p) => contextIds === null || contextIds.has(p.id))
              .map((p) => ({ project_id: p.id, project_name: p.name, board_columns: p.columns }))
          : [],
      };
    }
    return briefing;
  }

  /** Projects whose board context the caller gets (null = every readable one). */
  private contextProjects(actor: Actor, readable: string[] | null, assigned: HbIssue[], policy: HeartbeatPolicy): Set<string> | null {
    // personal agents: only relevant inherited-project context (their work and their focus)
    if (actor.agentScope === 'personal') {
      return new Set([...assigned.map((i) => i.projectId).filter((p): p is string => !!p), ...policy.project_ids]);
    }
    if (policy.project_ids.length) return new Set(policy.project_ids);
    return readable === null ? null : new Set(readable);
  }
}

export function issueView(i: HbIssue): Record<string, unknown> {
  return {
    id: i.id,
    title: i.title,
    status: i.status,
    priority: i.priority,
    assignee_id: i.assigneeId,
    project_id: i.projectId,
    milestone_id: i.milestoneId,
    number: i.number,
    blocked: i.blocked,
    due_date: i.dueDate,
    updated_at: i.updatedAt.toISOString(),
  };
}

/** Compact attention item (interface.md field set). */
export function compactAttention(r: NotificationRow): Record<string, unknown> {
  const n = toNotificationResponse(r);
  const out: Record<string, unknown> = {
    id: n.id,
    event_type: n.event_type,
    severity: n.severity,
    title: n.title,
    resource_type: n.resource_type,
    ack_endpoint: n.ack_endpoint,
  };
  if (n.resource_id) out.resource_id = n.resource_id;
  const v = verificationOf(r);
  if (v) out.verification = v;
  return out;
}

/** Full attention item: related resource fields, action_kind, target_path, comment routing (and a verification's `verification`). */
export function fullAttention(r: NotificationRow): Record<string, unknown> {
  const n = toNotificationResponse(r);
  const v = verificationOf(r);
  return v ? { ...n, verification: v } : { ...n };
}

/** The `verification` object of a `verification.completed` item (bounded identifiers, conclusion, run URL, next_action), or null. */
function verificationOf(r: NotificationRow): Record<string, unknown> | null {
  if (r.event_type !== 'verification.completed') return null;
  const v = r.metadata?.verification;
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

/** A signal as serialized (full `signals[]` and compact `signal_groups[]`). */
export function signalView(s: Signal, group: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { id: s.id, type: s.type, category: s.category, severity: s.severity, message: s.message, metadata: s.metadata };
  if (group) {
    if (s.type === 'issue_blocked') {
      out.blocker = s.blocker ?? null;
      out.release_condition = s.release_condition ?? null;
      out.issues = s.issues ?? [];
    }
  }
  if (s.suggested_read) out.suggested_read = s.suggested_read;
  return out;
}

export { CATEGORY_KEY };
