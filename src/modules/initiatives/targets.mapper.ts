import type { TargetRow } from './initiative-targets.repository';
import type { InitiativeRef, InitiativeScope, Visibility } from './initiative-scope.service';
import type { TargetProgressResponse, TargetResponse } from './targets.response';

const fmt = (n: number): string => (Number.isInteger(n) ? String(n) : String(Number(n.toFixed(4))));

/** Gate: completed of needed ("3/5 retailers complete"), never a pace; progress: value against target. */
export function targetProgress(r: TargetRow): TargetProgressResponse {
  const cur: number | null = r.current_value;
  const tgt: number | null = r.target_value;
  const what = r.unit_label ? ` ${r.unit_label}` : '';
  if (r.mode === 'gate') {
    const completed = cur ?? 0;
    const complete = r.status === 'completed' || (tgt !== null && completed >= tgt);
    return {
      completed,
      needed: tgt,
      percent: null,
      complete,
      label: tgt === null ? `${fmt(completed)}${what} complete` : `${fmt(completed)}/${fmt(tgt)}${what} complete`,
    };
  }
  const base: number = r.baseline_value ?? 0;
  let percent: number | null = null;
  let reached = false;
  if (cur !== null && tgt !== null) {
    if (r.target_direction === 'increase') reached = cur >= tgt;
    else if (r.target_direction === 'decrease') reached = cur <= tgt;
    if (r.target_direction !== 'maintain' && tgt !== base) percent = Math.max(0, Math.min(100, Math.round(((cur - base) / (tgt - base)) * 100)));
  }
  const label = cur === null ? 'no value recorded' : tgt === null ? `${fmt(cur)}${what}` : `${fmt(cur)} of ${fmt(tgt)}${what || ` ${r.unit}`}`;
  return { completed: null, needed: null, percent, complete: r.status === 'completed' || reached, label };
}

export function dueState(r: TargetRow, complete: boolean, today: string): TargetResponse['due_state'] {
  if (r.status === 'cancelled') return 'cancelled';
  if (complete) return 'complete';
  if (!r.target_date) return 'no_date';
  if (today > r.target_date) return 'overdue';
  if (r.mode === 'gate') {
    const soon = new Date(`${r.target_date}T00:00:00Z`);
    soon.setUTCDate(soon.getUTCDate() - r.due_soon_days);
    if (today >= soon.toISOString().slice(0, 10)) return 'due_soon';
  }
  return 'on_track';
}

export function toTargetResponse(r: TargetRow, ini: InitiativeRef, scope: InitiativeScope, vis: Visibility, today: string): TargetResponse {
  const progress = targetProgress(r);
  const issueIds = r.issues.filter((x) => vis.canSee(x.project_id)).map((x) => x.id);
  const milestoneIds = r.milestones.filter((x) => vis.canSee(x.project_id)).map((x) => x.id);
  return {
    id: r.id,
    initiative_id: r.initiative_id,
    title: r.title,
    description: r.description ?? null,
    mode: r.mode,
    status: r.status,
    unit: r.unit,
    unit_label: r.unit_label ?? null,
    baseline_value: r.baseline_value ?? null,
    current_value: r.current_value ?? null,
    target_value: r.target_value ?? null,
    target_direction: r.target_direction,
    target_date: r.target_date ?? null,
    due_soon_days: r.due_soon_days,
    due_state: dueState(r, progress.complete, today),
    progress,
    scope: { type: r.scope_type, project_ids: scope.scopeOf(ini, r.scope_type, r.scope_project_ids).filter((p) => vis.canSee(p)) },
    issueIds,
    milestoneIds,
    issue_ids: issueIds,
    milestone_ids: milestoneIds,
    created_by_id: r.created_by_member_id ?? null,
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
  };
}
