import type { AttentionRow } from './attention.repository';
import { safeOrNull } from './execution-rules';
import type { ActorCols, EvidenceRow, ExecutionRow, TransitionRow } from './executions.repository';
import type { ActorProjection, AttentionItemResponse, ExecutionEvidenceResponse, ExecutionResponse, ExecutionTransitionResponse } from './executions.response';

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

export const toActor = (a: ActorCols | null): ActorProjection | null =>
  a ? { id: a.removed ? null : a.id, display_name: a.removed ? null : a.display_name, type: a.type ?? 'agent', deleted: !!a.removed } : null;

export function toExecution(r: ExecutionRow, detail?: { transitions: TransitionRow[]; evidence: EvidenceRow[] }): ExecutionResponse {
  const out: ExecutionResponse = {
    id: r.id,
    issue_id: r.issue_id,
    current_project_id: r.current_project_id,
    project_id_at_creation: r.project_id_at_creation,
    state: r.state,
    state_version: r.state_version,
    reason: r.reason,
    summary: r.summary,
    outcome: r.outcome,
    failure: r.failure,
    harness_kind: safeOrNull(r.harness_kind),
    external_run_id: safeOrNull(r.external_run_id),
    agent_member_id: r.agent_member_id,
    agent: toActor(r.agent)!,
    created_by: toActor(r.created_by),
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
    ended_at: iso(r.ended_at),
  };
  if (detail) {
    out.transitions = detail.transitions.map(toTransition);
    out.evidence = detail.evidence.map(toEvidence);
  }
  return out;
}

export const toTransition = (t: TransitionRow): ExecutionTransitionResponse => ({
  id: t.id,
  from_state: t.from_state,
  to_state: t.to_state,
  state_version: t.state_version,
  via: t.via,
  reason: t.reason,
  actor: toActor(t.actor),
  created_at: iso(t.created_at)!,
});

export const toEvidence = (v: EvidenceRow): ExecutionEvidenceResponse => ({
  id: v.id,
  link_type: v.link_type,
  target_id: v.target_id,
  created_by: toActor(v.created_by),
  created_at: iso(v.created_at)!,
});

export const toAttention = (a: AttentionRow): AttentionItemResponse => ({
  id: a.id,
  execution_id: a.execution_id,
  issue_id: a.issue_id,
  state: a.state,
  version: a.version,
  title: a.title,
  question: a.question,
  options: a.options,
  answer: a.answer,
  unread: a.state === 'resolved' && a.acknowledged_at === null,
  requester: toActor(a.requester),
  resolved_by: toActor(a.resolved_by),
  resolved_at: iso(a.resolved_at),
  acknowledged_at: iso(a.acknowledged_at),
  cancelled_at: iso(a.cancelled_at),
  created_at: iso(a.created_at)!,
  updated_at: iso(a.updated_at)!,
});
