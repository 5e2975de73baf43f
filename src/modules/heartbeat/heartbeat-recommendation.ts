import { createHash } from 'node:crypto';
import type { KpiRow } from '../strategy-health/strategy-health.repository';
import type { Signal } from './heartbeat-composer.service';
import type { HbInitiative, HbIssue } from './heartbeat.repository';

export interface ActionInput {
  orgId: string;
  /** Signals after access and policy, ordered. */
  signals: Signal[];
  /** The caller's open assigned work (empty when the section is off). */
  assigned: HbIssue[];
  kpis: Map<string, KpiRow>;
  initiatives: Map<string, HbInitiative>;
  /** Overdue milestone id -> days past its date. */
  msOverdue: Map<string, number>;
}

/**
 * Ordering tiers (lower wins; within a tier: higher urgency, then the candidate key):
 * 0 blockers and urgent initiative targets; 1 executable work for off-pace KPIs and in-progress
 * work linked to stale KPIs; 2 signal-backed assigned work against critical standalone overdue
 * milestones, by urgency (a milestone that wins without assigned work is `investigate`); 3 stale
 * KPI refresh; 4 a new bet, then initiative work triggered only by KPI staleness, then unrelated
 * assigned work.
 */
export const TIERS = { blockers: 0, offPaceWork: 1, signalBacked: 2, refresh: 3, newBet: 4 } as const;

interface Candidate {
  tier: number;
  /** within tier 4: 0 new bet, 1 staleness-only initiative work, 2 unrelated work */
  sub: number;
  urgency: number;
  key: string;
  build: () => Omit<Action, 'id' | 'quality_checks' | 'usage_guidance'>;
}

export interface SuggestedWrite {
  operation: 'issue.create' | 'issue.update' | 'comment.create' | 'kpi.snapshot.create' | 'none';
  title: string | null;
  body: string | null;
  status: string | null;
  priority: number | null;
  project_id: string | null;
  initiative_id: string | null;
  kpi_id: string | null;
  initiative_target_id: string | null;
}

export interface Action {
  id: string;
  action_type: 'create_work' | 'start_work' | 'escalate_blocker' | 'refresh_metric' | 'investigate';
  title: string;
  target_type: 'issue' | 'kpi' | 'initiative' | 'initiative_target' | 'milestone';
  target_id: string;
  goal_id: string | null;
  kpi_id: string | null;
  initiative_id: string | null;
  source_signal_ids: string[];
  why_now: string;
  expected_impact: string;
  evidence: string[];
  first_step: string;
  success_criteria: string;
  suggested_write: SuggestedWrite;
  confidence: 'high' | 'medium' | 'low';
  caveats: string[];
  quality_checks: Array<{ id: string; status: 'pass' | 'warn'; message: string }>;
  usage_guidance: { instructions: string; preserve_fields: string[]; avoid_payload_sources: string[] };
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const write = (w: Partial<SuggestedWrite> & Pick<SuggestedWrite, 'operation'>): SuggestedWrite => ({
  title: null,
  body: null,
  status: null,
  priority: null,
  project_id: null,
  initiative_id: null,
  kpi_id: null,
  initiative_target_id: null,
  ...w,
});
const STARTED = (s: string) => !['backlog', 'todo'].includes(s);

/** The one recommended next action (deterministic: same input, same answer, same id), or null. */
export function recommend(x: ActionInput): Action | null {
  const c: Candidate[] = [];
  const bySignal = (type: string) => x.signals.filter((s) => s.type === type);
  const freeWork = x.assigned.filter((i) => !i.blocked);
  const kpiInis = (kpiId: string) => [...x.initiatives.values()].filter((n) => n.impacts.some((i) => i.kpi_id === kpiId) && n.status === 'active');

  // tier 0: blockers and urgent initiative targets
  for (const s of bySignal('issue_blocked')) {
    const blocker = s.blocker as { id: string; title: string; status: string } | null;
    const blocked = (s.issues ?? [])[0] as { id: string; title: string } | undefined;
    const targetId = blocker?.id ?? blocked!.id;
    c.push({
      tier: TIERS.blockers,
      sub: 0,
      urgency: s.urgency + (s.metadata.assigned_to_you ? 50 : 0),
      key: `0|${targetId}`,
      build: () => ({
        action_type: 'escalate_blocker',
        title: blocker ? `Unblock: get "${blocker.title}" moving` : `Escalate the hidden blocker of "${blocked!.title}"`,
        target_type: 'issue',
        target_id: targetId,
        goal_id: null,
        kpi_id: null,
        initiative_id: null,
        source_signal_ids: [s.id],
        why_now: s.message,
        expected_impact: `Releases ${(s.metadata.blocked_issue_ids as string[]).length} waiting issue(s).`,
        evidence: [s.message],
        first_step: blocker
          ? `Comment on the blocker asking its owner for a release date or help.`
          : 'Ask a project admin who can see the blocker to check it.',
        success_criteria: 'The blocker reaches its release column, or the dependency is re-planned.',
        suggested_write: write({
          operation: 'comment.create',
          body: `This issue blocks ${(s.metadata.blocked_issue_ids as string[]).length} other issue(s) (${(s.metadata.reasons as string[]).join(', ')}). Can it be released soon, or should the dependency be re-planned?`,
        }),
        confidence: 'high',
        caveats: blocker ? [] : ['The blocker is not readable by you; only its existence is known.'],
      }),
    });
  }
  for (const s of x.signals.filter((s) => s.type.startsWith('initiative_target_'))) {
    const m = s.metadata as { initiative_target_id: string; initiative_id: string };
    const ini = x.initiatives.get(m.initiative_id);
    const work = freeWork.find((i) => i.initiativeIds.includes(m.initiative_id));
    c.push({
      tier: TIERS.blockers,
      sub: 1,
      urgency: s.urgency,
      key: `0|${m.initiative_target_id}|${s.type}`,
      build: () =>
        work
          ? startWork(work, s, `Advance the target: ${s.message}`, ini ?? null)
          : {
              action_type: s.type === 'initiative_target_blocked' ? 'escalate_blocker' : 'investigate',
              title: `Recover the initiative target (${s.type.replace('initiative_target_', '').replace('_', ' ')})`,
              target_type: 'initiative_target',
              target_id: m.initiative_target_id,
              goal_id: ini?.goalId ?? null,
              kpi_id: null,
              initiative_id: m.initiative_id,
              source_signal_ids: [s.id],
              why_now: s.message,
              expected_impact: 'Keeps the initiative commitment on its date.',
              evidence: [s.message],
              first_step: `Read the target's linked issues (GET /api/orgs/${x.orgId}/initiatives/${m.initiative_id}/targets/${m.initiative_target_id}/issues).`,
              success_criteria: 'The target is complete, or its date is re-planned with the owner.',
              suggested_write: write({ operation: 'none', initiative_id: m.initiative_id, initiative_target_id: m.initiative_target_id }),
              confidence: 'medium',
              caveats: ['No unblocked assigned work is linked to this initiative.'],
            },
    });
  }

  // tier 1: executable work for off-pace KPIs; in-progress work linked to stale KPIs
  for (const s of bySignal('kpi_off_pace')) {
    const kpiId = s.metadata.kpi_id as string;
    const inis = kpiInis(kpiId);
    const work = freeWork.find((i) => i.initiativeIds.some((id) => inis.some((n) => n.id === id)));
    if (work)
      c.push({
        tier: TIERS.offPaceWork,
        sub: 0,
        urgency: s.urgency,
        key: `1|${kpiId}|${work.id}`,
        build: () => startWork(work, s, s.message, x.initiatives.get(work.initiativeIds[0]) ?? null, kpiId),
      });
    else if (inis.length) {
      const n = inis[0];
      c.push({ tier: TIERS.offPaceWork, sub: 1, urgency: s.urgency - 1, key: `1|${kpiId}|create|${n.id}`, build: () => createWork(x, s, kpiId, n) });
    } else c.push({ tier: TIERS.newBet, sub: 0, urgency: s.urgency, key: `4|${kpiId}|bet`, build: () => createWork(x, s, kpiId, null) });
  }
  const staleKpis = bySignal('kpi_stale');
  for (const s of staleKpis) {
    const kpiId = s.metadata.kpi_id as string;
    const inis = kpiInis(kpiId);
    for (const work of freeWork.filter((i) => i.initiativeIds.some((id) => inis.some((n) => n.id === id)))) {
      if (STARTED(work.status))
        c.push({ tier: TIERS.offPaceWork, sub: 2, urgency: s.urgency, key: `1|${kpiId}|${work.id}`, build: () => startWork(work, s, s.message, null, kpiId) });
      else c.push({ tier: TIERS.newBet, sub: 1, urgency: s.urgency, key: `4|${kpiId}|${work.id}`, build: () => startWork(work, s, s.message, null, kpiId) });
    }
    // tier 3: refresh the stale metric
    const k = x.kpis.get(kpiId);
    c.push({
      tier: TIERS.refresh,
      sub: 0,
      urgency: s.urgency,
      key: `3|${kpiId}`,
      build: () => ({
        action_type: 'refresh_metric',
        title: `Record a fresh value for KPI "${k?.name ?? kpiId}"`,
        target_type: 'kpi',
        target_id: kpiId,
        goal_id: k?.goalId ?? null,
        kpi_id: kpiId,
        initiative_id: null,
        source_signal_ids: [s.id],
        why_now: s.message,
        expected_impact: 'Decisions about this KPI rest on current data again.',
        evidence: [s.message],
        first_step: `Measure the KPI and POST /api/orgs/${x.orgId}/kpis/${kpiId}/snapshots.`,
        success_criteria: 'A snapshot newer than the staleness window exists.',
        suggested_write: write({ operation: 'kpi.snapshot.create', body: 'Refreshed measurement recorded from the heartbeat recommendation.', kpi_id: kpiId }),
        confidence: 'high',
        caveats: k?.sourceType && k.sourceType !== 'manual' ? [`The KPI is fed by ${k.sourceType}: check its source rather than typing a value.`] : [],
      }),
    });
  }

  // tier 2: signal-backed assigned work vs critical standalone overdue milestones, by urgency
  const staleWork = new Map(bySignal('issue_stale').map((s) => [s.metadata.issue_id as string, s]));
  const msSignals = new Map(bySignal('milestone_overdue').map((s) => [s.metadata.milestone_id as string, s]));
  for (const i of freeWork) {
    const s = staleWork.get(i.id) ?? (i.milestoneId ? msSignals.get(i.milestoneId) : undefined);
    if (!s) continue;
    c.push({ tier: TIERS.signalBacked, sub: 0, urgency: s.urgency, key: `2|${i.id}`, build: () => startWork(i, s, s.message, null) });
  }
  for (const s of msSignals.values()) {
    if (s.severity !== 'critical' || !s.metadata.standalone) continue;
    const mid = s.metadata.milestone_id as string;
    if (freeWork.some((i) => i.milestoneId === mid)) continue; // the assigned-work candidate above stands for it
    c.push({
      tier: TIERS.signalBacked,
      sub: 1,
      urgency: s.urgency,
      key: `2|${mid}`,
      build: () => ({
        action_type: 'investigate',
        title: 'Investigate the overdue milestone',
        target_type: 'milestone',
        target_id: mid,
        goal_id: null,
        kpi_id: null,
        initiative_id: null,
        source_signal_ids: [s.id],
        why_now: s.message,
        expected_impact: 'The milestone gets a realistic plan: finish, move its issues, or a new date.',
        evidence: [s.message],
        first_step: `Read the milestone and its open issues (GET /api/orgs/${x.orgId}/milestones/${mid}).`,
        success_criteria: 'The milestone is completed or re-dated, with owners on its open issues.',
        suggested_write: write({ operation: 'none', project_id: (s.metadata.project_id as string) ?? null }),
        confidence: 'medium',
        caveats: ['You have no assigned work in this milestone.'],
      }),
    });
  }

  // tier 4: unrelated assigned work
  for (const i of freeWork)
    c.push({
      tier: TIERS.newBet,
      sub: 2,
      urgency: -i.priority,
      key: `4|work|${String(i.number).padStart(10, '0')}|${i.id}`,
      build: () => startWork(i, null, 'Your open assigned work.', null),
    });

  if (!c.length) return null;
  c.sort(
    (a, b) =>
      a.tier - b.tier ||
      (a.tier === TIERS.newBet ? a.sub - b.sub : 0) ||
      b.urgency - a.urgency ||
      a.sub - b.sub ||
      (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
  const body = c[0].build();
  const id = `ra_${createHash('sha256')
    .update(JSON.stringify([body.action_type, body.target_id, body.source_signal_ids, body.suggested_write]))
    .digest('base64url')
    .slice(0, 22)}`;
  return {
    id,
    ...body,
    quality_checks: [
      { id: 'target_readable', status: 'pass', message: 'The target is readable by the agent this briefing is for.' },
      {
        id: 'body_format',
        status: 'pass',
        message: body.suggested_write.operation === 'issue.create' ? 'The issue-create body is HTML.' : 'The body is plain text.',
      },
      {
        id: 'signal_backed',
        status: body.source_signal_ids.length ? 'pass' : 'warn',
        message: body.source_signal_ids.length ? 'Backed by signals of this briefing.' : 'Backed by assigned work only.',
      },
    ],
    usage_guidance: {
      instructions:
        'Apply suggested_write as given (issue.update with a body: send the status change with the body as comment_body). Re-read the target first; skip if it changed.',
      preserve_fields: ['id', 'target_type', 'target_id', 'source_signal_ids'],
      avoid_payload_sources: ['attention item titles', 'comment bodies', 'webhook payloads', 'issue descriptions'],
    },
  };
}

function startWork(
  i: HbIssue,
  s: Signal | null,
  why: string,
  ini: HbInitiative | null,
  kpiId: string | null = null,
): Omit<Action, 'id' | 'quality_checks' | 'usage_guidance'> {
  const started = STARTED(i.status);
  return {
    action_type: 'start_work',
    title: started ? `Continue "${i.title}"` : `Start "${i.title}"`,
    target_type: 'issue',
    target_id: i.id,
    goal_id: ini?.goalId ?? null,
    kpi_id: kpiId,
    initiative_id: ini?.id ?? i.initiativeIds[0] ?? null,
    source_signal_ids: s ? [s.id] : [],
    why_now: why,
    expected_impact: s ? `Acts on: ${s.message}` : 'Moves your open work forward.',
    evidence: s ? [s.message] : [`Assigned to you, status ${i.status}, priority ${i.priority}.`],
    first_step: started ? 'Post a progress note and take the next step.' : 'Move the issue to in_progress and note the plan.',
    success_criteria: 'The issue moves to its next board column or is done.',
    suggested_write: write({
      operation: 'issue.update',
      status: 'in_progress',
      body: started ? 'Picking this up again from the heartbeat recommendation.' : 'Starting this from the heartbeat recommendation.',
      project_id: i.projectId,
      initiative_id: ini?.id ?? null,
      kpi_id: kpiId,
    }),
    confidence: s ? 'high' : 'medium',
    caveats: [],
  };
}

function createWork(x: ActionInput, s: Signal, kpiId: string, n: HbInitiative | null): Omit<Action, 'id' | 'quality_checks' | 'usage_guidance'> {
  const k = x.kpis.get(kpiId);
  const name = k?.name ?? kpiId;
  const project = n ? (n.projectId ?? n.projectIds[0] ?? null) : (k?.projectId ?? null);
  const title = n ? `Move KPI "${name}" through "${n.title}"` : `New bet to move KPI "${name}"`;
  return {
    action_type: 'create_work',
    title,
    target_type: n ? 'initiative' : 'kpi',
    target_id: n ? n.id : kpiId,
    goal_id: k?.goalId ?? n?.goalId ?? null,
    kpi_id: kpiId,
    initiative_id: n?.id ?? null,
    source_signal_ids: [s.id],
    why_now: s.message,
    expected_impact: n
      ? (n.impacts.find((i) => i.kpi_id === kpiId)?.expected_impact ?? `Moves "${name}" towards its target.`)
      : `Moves "${name}" towards its target.`,
    evidence: [s.message],
    first_step: 'Create the issue below, then link it to the initiative.',
    success_criteria: 'The KPI is back on pace at the next snapshot.',
    suggested_write: write({
      operation: 'issue.create',
      title,
      body: `<p>${esc(s.message)}</p><p>Expected impact: ${esc(n?.impacts.find((i) => i.kpi_id === kpiId)?.expected_impact ?? 'move the KPI towards its target')}.</p>`,
      status: 'todo',
      priority: 1,
      project_id: project,
      initiative_id: n?.id ?? null,
      kpi_id: kpiId,
    }),
    confidence: n ? 'medium' : 'low',
    caveats: n ? [] : ['No active initiative is linked to this KPI: this is a new bet.'],
  };
}
