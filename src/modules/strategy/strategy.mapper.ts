import type { EntityManager } from 'typeorm';
import { Errors } from '../../common/errors/domain-error';
import type { GoalResponse, KpiInitiativeImpact, KpiResponse, SnapshotResponse } from './strategy.response';

const iso = (v: unknown): string | null => (v ? new Date(v as string).toISOString() : null);

export const GOAL_SELECT = `SELECT g.id, g.title, g.description, g.owner_member_id, g.status, to_char(g.target_date, 'YYYY-MM-DD') AS target_date,
  g.project_id, g.created_by_member_id, g.created_at, g.updated_at FROM goals g`;

export const toGoalResponse = (r: Record<string, any>): GoalResponse => ({
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

export const KPI_SELECT = `SELECT k.id, k.name, k.description, k.goal_id, k.project_id, k.unit, k.unit_label, k.baseline_value, k.target_value,
  to_char(k.target_date, 'YYYY-MM-DD') AS target_date, k.target_direction, k.source_type, k.source_config, k.stale_after_hours, k.current_value,
  k.last_recorded_at, k.created_by_member_id, k.created_at, k.updated_at FROM kpis k`;

export const toKpiResponse = (r: Record<string, any>): KpiResponse => ({
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

export const SNAPSHOT_SELECT = `SELECT s.id, s.kpi_id, s.value, s.source, s.attribution_note, s.attributed_to_initiative_id, s.attributed_to_issue_id,
  s.recorded_by_member_id, s.source_sync_id, s.source_sync_run_id, s.source_config_hash, s.source_recorded_for, s.observed_at,
  s.provider_recorded_at, s.created_at FROM kpi_snapshots s`;

export const toSnapshotResponse = (r: Record<string, any>): SnapshotResponse => ({
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

export async function readGoal(m: EntityManager, orgId: string, id: string): Promise<GoalResponse> {
  const rows: Array<Record<string, any>> = await m.query(`${GOAL_SELECT} WHERE g.org_id = $1 AND g.id = $2`, [orgId, id]);
  if (!rows[0]) throw Errors.notFound('Goal not found');
  return toGoalResponse(rows[0]);
}

export async function readKpi(m: EntityManager, orgId: string, id: string): Promise<KpiResponse> {
  const rows: Array<Record<string, any>> = await m.query(`${KPI_SELECT} WHERE k.org_id = $1 AND k.id = $2`, [orgId, id]);
  if (!rows[0]) throw Errors.notFound('KPI not found');
  return toKpiResponse(rows[0]);
}

/** Project binding of a goal or KPI of the organization; undefined when there is none. */
export async function strategyRecordProject(m: EntityManager, table: 'goals' | 'kpis', orgId: string, id: string): Promise<{ projectId: string | null } | undefined> {
  const rows: Array<{ project_id: string | null }> = await m.query(`SELECT project_id FROM ${table} WHERE org_id = $1 AND id = $2`, [orgId, id]);
  return rows[0] ? { projectId: rows[0].project_id } : undefined;
}

export const toImpact = (r: Record<string, any>): KpiInitiativeImpact => ({
  id: r.id,
  initiative_id: r.initiative_id,
  kpi_id: r.kpi_id,
  expected_impact: r.expected_impact ?? null,
  created_at: iso(r.created_at)!,
  initiative: { id: r.initiative_id, title: r.title, name: r.name, status: r.status },
});
