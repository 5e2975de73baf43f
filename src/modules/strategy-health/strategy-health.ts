/**
 * Strategy health, defined once: pure functions over plain rows (no I/O), used by the strategy
 * audit and meant for the heartbeat. The SQL that loads the rows lives beside this file
 * (strategy-health.repository.ts); time is always passed in (`now`), never read here.
 *
 * Every threshold is a named constant below; docs/DECISIONS.md ("Strategy", "Strategy health")
 * explains them.
 */

/** A KPI without `stale_after_hours` is stale after this many hours without a snapshot (one week). */
export const DEFAULT_KPI_STALE_AFTER_HOURS = 168;

/**
 * Off pace: the KPI is behind the straight line from its baseline to its target by more than this
 * share of the whole distance (|target − baseline|). 0.1 = ten percent.
 */
export const OFF_PACE_TOLERANCE = 0.1;

/** `maintain` KPIs are off pace when further from the target than this share of |target| ... */
export const MAINTAIN_TOLERANCE = 0.1;
/** ... or than this absolute amount, whichever is larger (so a target of 0 is not absolute). */
export const MAINTAIN_MIN_ABS_TOLERANCE = 0;

/** An active initiative with open linked work is stalled when no linked issue changed for this many days. */
export const INITIATIVE_STALL_DAYS = 14;

/** Started open work (not backlog or todo) is stale when it has not changed for this many days. */
export const ISSUE_STALE_DAYS = 7;
/** Statuses of work not yet started: an issue in one of them is never stale, and as a blocker its wait is expected. */
export const UNSTARTED_ISSUE_STATUSES: readonly string[] = ['backlog', 'todo'];

/** Overdue issues and milestones become critical after this many days past their date. */
export const OVERDUE_CRITICAL_DAYS = 7;

/** A gate target is due soon when its date is within `due_soon_days` days; this is the default. */
export const DEFAULT_TARGET_DUE_SOON_DAYS = 7;

/** Issue statuses that end work (custom board statuses are open). */
export const TERMINAL_ISSUE_STATUSES: readonly string[] = ['done', 'cancelled'];
/** Milestone statuses that end it. */
export const TERMINAL_MILESTONE_STATUSES: readonly string[] = ['completed', 'cancelled'];

/** Goals audited by the goal checks and whose KPIs get KPI health. */
export const ACTIVE_GOAL_STATUSES: readonly string[] = ['active'];
/** Initiatives that get initiative health (paused, completed and cancelled are skipped). */
export const HEALTH_INITIATIVE_STATUSES: readonly string[] = ['proposed', 'active'];

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** End of a calendar date (YYYY-MM-DD) in UTC: a date is "past" only once that day is over. */
export function endOfDay(date: string): number {
  return Date.parse(`${date}T00:00:00.000Z`) + DAY_MS;
}

/** Whole days since the end of `date` (0 or negative when not past). */
export function daysPast(date: string, now: Date): number {
  return Math.floor((now.getTime() - endOfDay(date)) / DAY_MS) + 1;
}

export function isPastDate(date: string | null, now: Date): boolean {
  return !!date && now.getTime() >= endOfDay(date);
}

// ---------------------------------------------------------------- KPIs

export type TargetDirection = 'increase' | 'decrease' | 'maintain';

export interface KpiHealthRow {
  sourceType: string;
  currentValue: number | null;
  targetValue: number | null;
  baselineValue: number | null;
  targetDirection: TargetDirection;
  /** The KPI's own target date, else its goal's (YYYY-MM-DD). */
  targetDate: string | null;
  staleAfterHours: number | null;
  createdAt: Date;
  lastRecordedAt: Date | null;
  snapshotCount: number;
  firstSnapshotValue: number | null;
  firstSnapshotAt: Date | null;
}

/** Calculated KPIs are kept current from linked work: no snapshots, never stale or unrecorded. */
export const isCalculated = (k: Pick<KpiHealthRow, 'sourceType'>): boolean => k.sourceType === 'formula';

export function isKpiUnrecorded(k: KpiHealthRow): boolean {
  return !isCalculated(k) && k.snapshotCount === 0;
}

export function isKpiMissingTarget(k: KpiHealthRow): boolean {
  return !isCalculated(k) && k.targetValue === null;
}

/** Recorded at least once, and the latest snapshot is older than `stale_after_hours` (default one week). */
export function isKpiStale(k: KpiHealthRow, now: Date): boolean {
  if (isCalculated(k) || !k.lastRecordedAt) return false;
  const hours = k.staleAfterHours ?? DEFAULT_KPI_STALE_AFTER_HOURS;
  return now.getTime() - k.lastRecordedAt.getTime() > hours * HOUR_MS;
}

export interface KpiPace {
  /** Where the line says the KPI should be now. */
  expected: number;
  actual: number;
  baseline: number;
  target: number;
  offPace: boolean;
  /** The target date is over and the target is not met. */
  missed: boolean;
}

/**
 * Pace against a straight line from the baseline to the target by the target date.
 * Baseline: `baseline_value` at the KPI's creation, else the first snapshot at its time.
 * Off pace (increase; decrease mirrored):
 * - the value is behind the line by more than OFF_PACE_TOLERANCE of the distance, or
 * - the value moved the wrong way from the baseline (below it for increase).
 * `maintain`: off when further from the target than MAINTAIN_TOLERANCE of |target|.
 * Null when pace cannot be judged (no target, no value, no baseline; no date needed for maintain).
 */
export function kpiPace(k: KpiHealthRow, now: Date): KpiPace | null {
  if (k.targetValue === null || k.currentValue === null) return null;
  const target = k.targetValue;
  const actual = k.currentValue;
  if (k.targetDirection === 'maintain') {
    const tol = Math.max(Math.abs(target) * MAINTAIN_TOLERANCE, MAINTAIN_MIN_ABS_TOLERANCE);
    const off = Math.abs(actual - target) > tol;
    return { expected: target, actual, baseline: k.baselineValue ?? target, target, offPace: off, missed: false };
  }
  const hasBaseline = k.baselineValue !== null;
  const baseline = hasBaseline ? k.baselineValue! : k.firstSnapshotValue;
  const t0 = hasBaseline ? k.createdAt.getTime() : k.firstSnapshotAt?.getTime();
  if (baseline === null || t0 === undefined || !k.targetDate) return null;
  const t1 = endOfDay(k.targetDate);
  const span = t1 - t0;
  const progress = span <= 0 ? 1 : Math.min(1, Math.max(0, (now.getTime() - t0) / span));
  const expected = baseline + (target - baseline) * progress;
  const sign = k.targetDirection === 'increase' ? 1 : -1;
  const distance = Math.abs(target - baseline);
  const behind = sign * (expected - actual); // > 0: behind the line
  const wrongWay = sign * (baseline - actual) > 0;
  const reached = sign * (actual - target) >= 0;
  const missed = now.getTime() >= t1 && !reached;
  const offPace = !reached && (behind > distance * OFF_PACE_TOLERANCE || wrongWay || missed);
  return { expected, actual, baseline, target, offPace, missed };
}

// ---------------------------------------------------------------- issues, milestones

export interface IssueHealthRow {
  status: string;
  archived: boolean;
  dueDate: string | null;
  /** Has at least one unsatisfied dependency (DependencyRules' one definition of "satisfied"). */
  blocked: boolean;
}

export const isIssueOpen = (i: Pick<IssueHealthRow, 'status' | 'archived'>): boolean => !i.archived && !TERMINAL_ISSUE_STATUSES.includes(i.status);
export const isIssueOverdue = (i: IssueHealthRow, now: Date): boolean => isIssueOpen(i) && isPastDate(i.dueDate, now);
export const isIssueBlocked = (i: IssueHealthRow): boolean => isIssueOpen(i) && i.blocked;

/** Open, started (not backlog/todo) and unchanged for more than ISSUE_STALE_DAYS days. */
export function isIssueStale(i: Pick<IssueHealthRow, 'status' | 'archived'> & { updatedAt: Date }, now: Date): boolean {
  if (!isIssueOpen(i) || UNSTARTED_ISSUE_STATUSES.includes(i.status)) return false;
  return now.getTime() - i.updatedAt.getTime() > ISSUE_STALE_DAYS * DAY_MS;
}

/** Open, with a due date not yet past but within DEFAULT_TARGET_DUE_SOON_DAYS days (a threatened commitment). */
export function isIssueDueSoon(i: Pick<IssueHealthRow, 'status' | 'archived' | 'dueDate'>, now: Date): boolean {
  if (!isIssueOpen(i) || !i.dueDate || isPastDate(i.dueDate, now)) return false;
  return endOfDay(i.dueDate) - now.getTime() <= DEFAULT_TARGET_DUE_SOON_DAYS * DAY_MS;
}

export interface MilestoneHealthRow {
  status: string;
  targetDate: string | null;
}

/** Past its target date and neither completed nor cancelled. */
export const isMilestoneOverdue = (m: MilestoneHealthRow, now: Date): boolean =>
  !TERMINAL_MILESTONE_STATUSES.includes(m.status) && isPastDate(m.targetDate, now);

/** 'critical' once OVERDUE_CRITICAL_DAYS days past the date, else 'warning'. */
export const overdueSeverity = (date: string, now: Date): 'critical' | 'warning' => (daysPast(date, now) > OVERDUE_CRITICAL_DAYS ? 'critical' : 'warning');

// ---------------------------------------------------------------- initiatives

export interface InitiativeWorkRow {
  status: string;
  targetDate: string | null;
  /** Non-archived issues linked directly or through a linked milestone. */
  linkedIssues: number;
  linkedMilestones: number;
  openIssues: number;
  /** Latest `updated_at` of the linked issues (null without any). */
  lastIssueUpdateAt: Date | null;
}

/** No linked issue and no linked milestone: nothing executes the initiative. */
export const isInitiativeMissingExecution = (i: InitiativeWorkRow): boolean => i.linkedIssues === 0 && i.linkedMilestones === 0;

/**
 * Active, with open linked work, and either no linked issue changed within INITIATIVE_STALL_DAYS
 * days or its target date is over. (No linked work at all is `initiative_missing_execution`.)
 */
export function isInitiativeStalled(i: InitiativeWorkRow, now: Date): boolean {
  if (i.status !== 'active' || i.openIssues === 0) return false;
  if (isPastDate(i.targetDate, now)) return true;
  return !i.lastIssueUpdateAt || now.getTime() - i.lastIssueUpdateAt.getTime() > INITIATIVE_STALL_DAYS * DAY_MS;
}

// ---------------------------------------------------------------- initiative targets

export interface TargetHealthRow {
  mode: string;
  currentValue: number | null;
  targetValue: number | null;
  targetDirection: string | null;
  targetDate: string | null;
  dueSoonDays: number | null;
  /** Status when the target has one (`completed`, `cancelled` end it); null otherwise. */
  status: string | null;
  linkedIssues: number;
  linkedMilestones: number;
  /** Linked open issues with an unsatisfied dependency. */
  blockedIssues: number;
}

/** Reached its target value (direction-aware; maintain = equal), or ended by its status. */
export function isTargetComplete(t: TargetHealthRow): boolean {
  if (t.status && ['completed', 'cancelled', 'done', 'achieved'].includes(t.status)) return true;
  if (t.targetValue === null || t.currentValue === null) return false;
  if (t.targetDirection === 'decrease') return t.currentValue <= t.targetValue;
  if (t.targetDirection === 'maintain') return t.currentValue === t.targetValue;
  return t.currentValue >= t.targetValue;
}
export const isTargetMissingExecution = (t: TargetHealthRow): boolean => !isTargetComplete(t) && t.linkedIssues === 0 && t.linkedMilestones === 0;
export const isTargetOverdue = (t: TargetHealthRow, now: Date): boolean => !isTargetComplete(t) && isPastDate(t.targetDate, now);
export const isTargetBlocked = (t: TargetHealthRow): boolean => !isTargetComplete(t) && t.blockedIssues > 0;
/** Incomplete gate target whose date falls within its due-soon window (not yet past). */
export function isTargetDueSoon(t: TargetHealthRow, now: Date): boolean {
  if (isTargetComplete(t) || !t.targetDate || isPastDate(t.targetDate, now)) return false;
  const days = t.dueSoonDays ?? DEFAULT_TARGET_DUE_SOON_DAYS;
  return endOfDay(t.targetDate) - now.getTime() <= days * DAY_MS;
}
