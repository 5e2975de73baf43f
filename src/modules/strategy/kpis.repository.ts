import { Injectable } from '@nestjs/common';
import { Sql, type Tx } from '../../database/sql.service';
import { LINKED_ISSUES_SQL } from '../strategy-health/strategy-health.repository';
import { initiativeVisibleSql, type StrategyFilter, visibleSql } from './goals.repository';

/** A KPI as responses show it. */
export interface KpiRow {
  id: string;
  name: string;
  description: string | null;
  goal_id: string | null;
  project_id: string | null;
  unit: string;
  unit_label: string | null;
  baseline_value: number | null;
  target_value: number | null;
  target_date: string | null;
  target_direction: string;
  source_type: string;
  source_config: Record<string, unknown> | null;
  stale_after_hours: number | null;
  current_value: number | null;
  last_recorded_at: Date | null;
  created_by_member_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A KPI snapshot as responses show it. */
export interface SnapshotRow {
  id: string;
  kpi_id: string;
  value: number;
  source: string;
  attribution_note: string | null;
  attributed_to_initiative_id: string | null;
  attributed_to_issue_id: string | null;
  recorded_by_member_id: string | null;
  source_sync_id: string | null;
  source_sync_run_id: string | null;
  source_config_hash: string | null;
  source_recorded_for: string | null;
  observed_at: Date | null;
  provider_recorded_at: Date | null;
  created_at: Date;
}

/** An initiative's expected impact on a KPI, with the initiative's title, name and status. */
export interface KpiImpactRow {
  id: string;
  initiative_id: string;
  kpi_id: string;
  expected_impact: string | null;
  created_at: Date;
  title: string;
  name: string;
  status: string;
}

/** A KPI's source as stored (locked for a change). */
export interface KpiSourceRow {
  source_type: string;
  source_config: Record<string, unknown> | null;
  goal_id: string | null;
}

/** A new KPI's stored fields (`sourceConfig` as JSON text). */
export interface NewKpi {
  id: string;
  goalId: string | null;
  projectId: string | null;
  name: string;
  description: string | null;
  unit: string;
  unitLabel: string | null;
  baselineValue: number | null;
  targetValue: number | null;
  targetDate: string | null;
  targetDirection: string;
  sourceType: string;
  sourceConfig: string | null;
  staleAfterHours: number | null;
  createdByMemberId: string;
}

/** KPI fields an update may change besides the source (absent = unchanged, null = cleared). */
export interface KpiChanges {
  name?: string;
  description?: string | null;
  goalId?: string | null;
  projectId?: string | null;
  unit?: string;
  unitLabel?: string | null;
  baselineValue?: number | null;
  targetValue?: number | null;
  targetDate?: string | null;
  targetDirection?: string;
  staleAfterHours?: number | null;
}

const CHANGE_COLUMNS: Record<keyof KpiChanges, string> = {
  name: 'name',
  description: 'description',
  goalId: 'goal_id',
  projectId: 'project_id',
  unit: 'unit',
  unitLabel: 'unit_label',
  baselineValue: 'baseline_value',
  targetValue: 'target_value',
  targetDate: 'target_date',
  targetDirection: 'target_direction',
  staleAfterHours: 'stale_after_hours',
};

/** A new snapshot's stored fields. */
export interface NewSnapshot {
  id: string;
  kpiId: string;
  value: number;
  source: string;
  attributionNote: string | null;
  initiativeId: string | null;
  issueId: string | null;
  recordedByMemberId: string;
}

/** The formula KPIs a recalculation covers. */
export type FormulaScope =
  | { kind: 'issues'; issueIds: string[]; milestoneIds: string[] }
  | { kind: 'initiatives'; initiativeIds: string[] }
  | { kind: 'goals'; goalIds: string[] }
  | { kind: 'kpi'; kpiId: string }
  | { kind: 'org' };

/** The condition on formula KPIs `k` of each scope (`$1` = organization) and its parameters. */
function formulaWhere(s: FormulaScope): { where: string; params: unknown[] } {
  switch (s.kind) {
    case 'issues':
      return {
        where: `k.goal_id IN (
         SELECT n.goal_id FROM initiative_issues ii JOIN initiatives n ON n.org_id = ii.org_id AND n.id = ii.initiative_id
          WHERE ii.org_id = $1 AND ii.issue_id = ANY($2::uuid[])
         UNION
         SELECT n.goal_id FROM initiative_milestones im JOIN initiatives n ON n.org_id = im.org_id AND n.id = im.initiative_id
          WHERE im.org_id = $1 AND (im.milestone_id = ANY($3::uuid[])
             OR im.milestone_id IN (SELECT i.milestone_id FROM issues i WHERE i.org_id = $1 AND i.id = ANY($2::uuid[]) AND i.milestone_id IS NOT NULL)))`,
        params: [s.issueIds, s.milestoneIds],
      };
    case 'initiatives':
      return { where: 'k.goal_id IN (SELECT n.goal_id FROM initiatives n WHERE n.org_id = $1 AND n.id = ANY($2::uuid[]))', params: [s.initiativeIds] };
    case 'goals':
      return { where: 'k.goal_id = ANY($2::uuid[])', params: [s.goalIds] };
    case 'kpi':
      return { where: 'k.id = $2', params: [s.kpiId] };
    case 'org':
      return { where: 'TRUE', params: [] };
  }
}

const KPI_SELECT = `SELECT k.id, k.name, k.description, k.goal_id, k.project_id, k.unit, k.unit_label, k.baseline_value, k.target_value,
  to_char(k.target_date, 'YYYY-MM-DD') AS target_date, k.target_direction, k.source_type, k.source_config, k.stale_after_hours, k.current_value,
  k.last_recorded_at, k.created_by_member_id, k.created_at, k.updated_at FROM kpis k`;

const SNAPSHOT_SELECT = `SELECT s.id, s.kpi_id, s.value, s.source, s.attribution_note, s.attributed_to_initiative_id, s.attributed_to_issue_id,
  s.recorded_by_member_id, s.source_sync_id, s.source_sync_run_id, s.source_config_hash, s.source_recorded_for, s.observed_at,
  s.provider_recorded_at, s.created_at FROM kpi_snapshots s`;

/**
 * KPIs and their snapshots (tables `kpis`, `kpi_snapshots`), the formula KPI recalculation, and the
 * reads of the KPI read model that join initiatives and issues (impacts, snapshot attributions).
 */
@Injectable()
export class KpisRepository {
  constructor(private readonly sql: Sql) {}

  /** KPI `id` of the organization, or undefined. */
  find(orgId: string, id: string, m?: Tx): Promise<KpiRow | undefined> {
    return this.sql.row<KpiRow>(`${KPI_SELECT} WHERE k.org_id = $1 AND k.id = $2`, [orgId, id], m);
  }

  /** The project binding of KPI `id` (`project_id` null = organization-level), or undefined when there is no such KPI. */
  projectOf(orgId: string, id: string, m?: Tx): Promise<{ project_id: string | null } | undefined> {
    return this.sql.row<{ project_id: string | null }>('SELECT project_id FROM kpis WHERE org_id = $1 AND id = $2', [orgId, id], m);
  }

  /** Id, project and goal of KPI `id` of the organization, or undefined. */
  findRef(orgId: string, id: string, m?: Tx): Promise<{ id: string; project_id: string | null; goal_id: string | null } | undefined> {
    return this.sql.row<{ id: string; project_id: string | null; goal_id: string | null }>(
      'SELECT id, project_id, goal_id FROM kpis WHERE org_id = $1 AND id = $2',
      [orgId, id],
      m,
    );
  }

  /** One page of the KPIs visible through `f` (optionally of one goal), newest first, and their total. */
  async page(orgId: string, f: StrategyFilter, goalId: string | null, limit: number, offset: number, m?: Tx): Promise<{ rows: KpiRow[]; total: number }> {
    const where = `k.org_id = $1 AND ${visibleSql('k', 2, 3)} AND ($4::uuid IS NULL OR k.goal_id = $4)`;
    const params = [orgId, f.orgLevel, f.projects, goalId];
    const rows = await this.sql.planned<KpiRow>(
      `${KPI_SELECT} WHERE ${where} ORDER BY k.created_at DESC, k.id DESC LIMIT ${limit} OFFSET ${offset}`,
      params,
      m,
    );
    const total = await this.sql.row<{ n: number }>(`SELECT count(*)::int AS n FROM kpis k WHERE ${where}`, params, m);
    return { rows, total: total!.n };
  }

  /** Ids of the formula KPIs of goal `goalId`. */
  async formulaIdsOfGoal(orgId: string, goalId: string, m?: Tx): Promise<string[]> {
    const rows = await this.sql.rows<{ id: string }>(`SELECT id FROM kpis WHERE org_id = $1 AND goal_id = $2 AND source_type = 'formula'`, [orgId, goalId], m);
    return rows.map((r) => r.id);
  }

  /** Stores a new KPI of the organization. */
  async insert(orgId: string, k: NewKpi, m?: Tx): Promise<void> {
    await this.sql.run(
      `INSERT INTO kpis (org_id, id, goal_id, project_id, name, description, unit, unit_label, baseline_value, target_value, target_date,
                           target_direction, source_type, source_config, stale_after_hours, created_by_member_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
      [
        orgId,
        k.id,
        k.goalId,
        k.projectId,
        k.name,
        k.description,
        k.unit,
        k.unitLabel,
        k.baselineValue,
        k.targetValue,
        k.targetDate,
        k.targetDirection,
        k.sourceType,
        k.sourceConfig,
        k.staleAfterHours,
        k.createdByMemberId,
      ],
      m,
    );
  }

  /** The source of KPI `id`, its row locked (FOR UPDATE) for the rest of the transaction `m`. */
  lockSource(orgId: string, id: string, m: Tx): Promise<KpiSourceRow | undefined> {
    return this.sql.row<KpiSourceRow>('SELECT source_type, source_config, goal_id FROM kpis WHERE org_id = $1 AND id = $2 FOR UPDATE', [orgId, id], m);
  }

  /** The source type of KPI `id`, its row locked (FOR UPDATE) for the rest of the transaction `m`. */
  lockSourceType(orgId: string, id: string, m: Tx): Promise<{ source_type: string } | undefined> {
    return this.sql.row<{ source_type: string }>('SELECT source_type FROM kpis WHERE org_id = $1 AND id = $2 FOR UPDATE', [orgId, id], m);
  }

  /** Writes the source (config as JSON text) and the given fields of KPI `id`, and its updated_at. */
  async update(orgId: string, id: string, sourceType: string, sourceConfig: string | null, changes: KpiChanges, m?: Tx): Promise<void> {
    const sets = ['source_type = $3', 'source_config = $4'];
    const values: unknown[] = [orgId, id, sourceType, sourceConfig];
    for (const [key, column] of Object.entries(CHANGE_COLUMNS) as Array<[keyof KpiChanges, string]>) {
      const v = changes[key];
      if (v === undefined) continue;
      values.push(v);
      sets.push(`${column} = $${values.length}`);
    }
    await this.sql.planned(`UPDATE kpis SET ${sets.join(', ')}, updated_at = now() WHERE org_id = $1 AND id = $2`, values, m);
  }

  /**
   * Deletes KPI `id` (its snapshots, syncs and impact links go with it; sync runs that recorded one
   * of its snapshots lose the link first (foreign keys to it are NO ACTION, so the references are cleared first: migration 1765660000000, docs/CITUS.md)).
   */
  async delete(orgId: string, id: string, m: Tx): Promise<void> {
    await this.sql.run(
      'UPDATE kpi_http_sync_runs SET snapshot_id = NULL WHERE org_id = $1 AND snapshot_id IN (SELECT s.id FROM kpi_snapshots s WHERE s.org_id = $1 AND s.kpi_id = $2)',
      [orgId, id],
      m,
    );
    await this.sql.run('DELETE FROM kpis WHERE org_id = $1 AND id = $2', [orgId, id], m);
  }

  /** Impact links on KPI `kpiId` of initiatives visible through `f`, oldest first. */
  impactsOf(orgId: string, kpiId: string, f: StrategyFilter, m?: Tx): Promise<KpiImpactRow[]> {
    return this.sql.rows<KpiImpactRow>(
      `SELECT x.id, x.initiative_id, x.kpi_id, x.expected_impact, x.created_at, n.title, n.name, n.status
         FROM initiative_kpi_impacts x JOIN initiatives n ON n.org_id = x.org_id AND n.id = x.initiative_id
        WHERE x.org_id = $1 AND x.kpi_id = $2 AND ${initiativeVisibleSql('n', 3, 4)}
        ORDER BY x.created_at, x.id`,
      [orgId, kpiId, f.orgLevel, f.projects],
      m,
    );
  }

  /** Stores a snapshot (created now, by the statement clock). */
  async insertSnapshot(orgId: string, s: NewSnapshot, m?: Tx): Promise<void> {
    await this.sql.run(
      `INSERT INTO kpi_snapshots (org_id, id, kpi_id, value, source, attribution_note, attributed_to_initiative_id, attributed_to_issue_id, recorded_by_member_id, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, clock_timestamp())`,
      [orgId, s.id, s.kpiId, s.value, s.source, s.attributionNote, s.initiativeId, s.issueId, s.recordedByMemberId],
      m,
    );
  }

  /** Makes snapshot `snapshotId` its KPI's current value (current_value, last_recorded_at). */
  async applySnapshot(orgId: string, snapshotId: string, m?: Tx): Promise<void> {
    await this.sql.run(
      `UPDATE kpis k SET current_value = s.value, last_recorded_at = s.created_at, updated_at = now()
           FROM kpi_snapshots s WHERE s.org_id = $1 AND s.id = $2 AND k.org_id = $1 AND k.id = s.kpi_id`,
      [orgId, snapshotId],
      m,
    );
  }

  /** Snapshot `id` of the organization, or undefined. */
  findSnapshot(orgId: string, id: string, m?: Tx): Promise<SnapshotRow | undefined> {
    return this.sql.row<SnapshotRow>(`${SNAPSHOT_SELECT} WHERE s.org_id = $1 AND s.id = $2`, [orgId, id], m);
  }

  /** One page of the snapshots of KPI `kpiId`, newest first, and their total. */
  async snapshotsPage(orgId: string, kpiId: string, limit: number, offset: number, m?: Tx): Promise<{ rows: SnapshotRow[]; total: number }> {
    const rows = await this.sql.planned<SnapshotRow>(
      `${SNAPSHOT_SELECT} WHERE s.org_id = $1 AND s.kpi_id = $2 ORDER BY s.created_at DESC, s.id DESC LIMIT ${limit} OFFSET ${offset}`,
      [orgId, kpiId],
      m,
    );
    const total = await this.sql.row<{ n: number }>('SELECT count(*)::int AS n FROM kpi_snapshots WHERE org_id = $1 AND kpi_id = $2', [orgId, kpiId], m);
    return { rows, total: total!.n };
  }

  /** Whether initiative `initiativeId` (a snapshot attribution) exists and is visible through `f`. */
  async initiativeVisible(orgId: string, initiativeId: string, f: StrategyFilter, m?: Tx): Promise<boolean> {
    const rows = await this.sql.rows(
      `SELECT 1 FROM initiatives n WHERE n.org_id = $1 AND n.id = $2 AND ${initiativeVisibleSql('n', 3, 4)}`,
      [orgId, initiativeId, f.orgLevel, f.projects],
      m,
    );
    return rows.length > 0;
  }

  /** Of the issue and initiative ids snapshots are attributed to, those visible through `f`. */
  async visibleAttributions(orgId: string, issueIds: string[], initiativeIds: string[], f: StrategyFilter, m?: Tx): Promise<string[]> {
    const rows = await this.sql.rows<{ id: string }>(
      `SELECT i.id FROM issues i WHERE i.org_id = $1 AND i.id = ANY($2::uuid[]) AND ${visibleSql('i', 4, 5)}
       UNION ALL
       SELECT n.id FROM initiatives n WHERE n.org_id = $1 AND n.id = ANY($3::uuid[]) AND ${initiativeVisibleSql('n', 4, 5)}`,
      [orgId, issueIds, initiativeIds, f.orgLevel, f.projects],
      m,
    );
    return rows.map((r) => r.id);
  }

  /** Whether any formula KPI of the organization falls in `scope` (a probe without the lock). */
  async anyFormula(orgId: string, scope: FormulaScope, m?: Tx): Promise<boolean> {
    const { where, params } = formulaWhere(scope);
    const row = await this.sql.row<{ any: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM kpis k WHERE k.org_id = $1 AND k.source_type = 'formula' AND (${where})) AS any`,
      [orgId, ...params],
      m,
    );
    return !!row?.any;
  }

  /**
   * Takes the organization's formula lock (transaction-scoped, re-entrant); see
   * FormulaKpiRecalculator.lockIn for when it must come first.
   */
  async lockFormulas(orgId: string, m: Tx): Promise<void> {
    await this.sql.run(`SELECT pg_advisory_xact_lock(hashtextextended('formula-kpi:' || $1::text, 0))`, [orgId], m);
  }

  /**
   * The one recalculation statement: the formula KPIs of `scope` get the count of their goal's
   * linked work (target) and of its done issues (current); answers the ids of the KPIs that changed.
   * Planned per execution: the scopes' id lists vary in size from one issue to the organization.
   */
  async recalculateFormulas(orgId: string, scope: FormulaScope, m: Tx): Promise<string[]> {
    const { where, params } = formulaWhere(scope);
    const rows = await this.sql.planned<{ id: string }>(
      `WITH k AS MATERIALIZED (
         SELECT k.org_id, k.id, k.goal_id, k.source_config FROM kpis k
          WHERE k.org_id = $1 AND k.source_type = 'formula' AND (${where})),
       calc AS (
         SELECT k.id, c.done, c.total
           FROM k
          CROSS JOIN LATERAL (
            SELECT count(*) FILTER (WHERE i.status = ANY(ARRAY(SELECT jsonb_array_elements_text(k.source_config -> 'done_statuses'))))::float8 AS done,
                   count(*)::float8 AS total
              FROM (SELECT DISTINCT l.issue_id FROM initiatives n CROSS JOIN LATERAL (${LINKED_ISSUES_SQL('n')}) l
                     WHERE n.org_id = k.org_id AND n.goal_id = k.goal_id) l
              JOIN issues i ON i.org_id = k.org_id AND i.id = l.issue_id AND i.archived_at IS NULL) c)
       UPDATE kpis SET current_value = calc.done, target_value = calc.total, last_recorded_at = now(), updated_at = now()
         FROM calc
        WHERE kpis.org_id = $1 AND kpis.id = ANY(ARRAY(SELECT k.id FROM k)) AND kpis.id = calc.id
          AND (kpis.current_value IS DISTINCT FROM calc.done OR kpis.target_value IS DISTINCT FROM calc.total OR kpis.last_recorded_at IS NULL)
       RETURNING kpis.id`,
      [orgId, ...params],
      m,
    );
    return rows.map((r) => r.id);
  }
}
