import type { GoalRow } from './goals.repository';
import type { KpiImpactRow, KpiRow, SnapshotRow } from './kpis.repository';
import type { GoalResponse, KpiInitiativeImpact, KpiResponse, SnapshotResponse } from './strategy.response';

const iso = (v: unknown): string | null => (v ? new Date(v as string).toISOString() : null);

export const toGoalResponse = (r: GoalRow): GoalResponse => ({
  id: r.id,
  title: r.title,
  description: r.description ?? null,
  owner_id: r.owner_member_id ?? null,
  status: r.status,
  target_date: r.target_date ?? null,
  project_id: r.project_id ?? null,
  created_by_member_id: r.created_by_member_id ?? null,
  created_at: iso(r.created_at)!,
  updated_at: iso(r.updated_at)!,
});

export const toKpiResponse = (r: KpiRow): KpiResponse => ({
  id: r.id,
  name: r.name,
  description: r.description ?? null,
  goal_id: r.goal_id ?? null,
  project_id: r.project_id ?? null,
  unit: r.unit,
  unit_label: r.unit_label ?? null,
  baseline_value: r.baseline_value ?? null,
  target_value: r.target_value ?? null,
  target_date: r.target_date ?? null,
  target_direction: r.target_direction,
  source_type: r.source_type,
  source_config: r.source_config ?? null,
  stale_after_hours: r.stale_after_hours ?? null,
  current_value: r.current_value ?? null,
  last_recorded_at: iso(r.last_recorded_at),
  created_by_member_id: r.created_by_member_id ?? null,
  created_at: iso(r.created_at)!,
  updated_at: iso(r.updated_at)!,
});

export const toSnapshotResponse = (r: SnapshotRow): SnapshotResponse => ({
  id: r.id,
  kpi_id: r.kpi_id,
  value: r.value,
  source: r.source,
  attribution_note: r.attribution_note ?? null,
  attributed_to_initiative_id: r.attributed_to_initiative_id ?? null,
  attributed_to_issue_id: r.attributed_to_issue_id ?? null,
  recorded_by_member_id: r.recorded_by_member_id ?? null,
  source_sync_id: r.source_sync_id ?? null,
  source_sync_run_id: r.source_sync_run_id ?? null,
  source_config_hash: r.source_config_hash ?? null,
  source_recorded_for: r.source_recorded_for ?? null,
  observed_at: iso(r.observed_at),
  provider_recorded_at: iso(r.provider_recorded_at),
  created_at: iso(r.created_at)!,
});

export const toImpact = (r: KpiImpactRow): KpiInitiativeImpact => ({
  id: r.id,
  initiative_id: r.initiative_id,
  kpi_id: r.kpi_id,
  expected_impact: r.expected_impact ?? null,
  created_at: iso(r.created_at)!,
  initiative: { id: r.initiative_id, title: r.title, name: r.name, status: r.status },
});
