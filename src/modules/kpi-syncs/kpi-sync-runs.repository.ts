import { Injectable } from '@nestjs/common';
import { Sql, type Tx } from '../../database/sql.service';

/** A kpi_http_sync_runs row (every column). */
export interface SyncRunRow {
  org_id: string;
  id: string;
  sync_id: string;
  kpi_id: string;
  trigger: 'dry_run' | 'preview' | 'manual' | 'schedule';
  status: 'queued' | 'running' | 'success' | 'error';
  recorded_for: string;
  observed_at: Date | null;
  provider_recorded_at: Date | null;
  http_status: number | null;
  duration_ms: number | null;
  response_bytes: number | null;
  extracted_value: number | null;
  snapshot_id: string | null;
  error_code: string | null;
  redacted_error: string | null;
  config_version: number;
  config_hash: string;
  triggered_by_member_id: string | null;
  created_at: Date;
  finished_at: Date | null;
}

/** A run to record (`running`, or `queued` for scheduled claims). */
export interface NewSyncRun {
  orgId: string;
  id: string;
  syncId: string;
  kpiId: string;
  trigger: SyncRunRow['trigger'];
  status: 'queued' | 'running';
  recordedFor: string;
  configVersion: number;
  configHash: string;
  triggeredByMemberId: string | null;
  createdAt: Date;
}

/** How a run ended. */
export interface SyncRunResult {
  status: 'success' | 'error';
  observedAt: Date;
  providerRecordedAt: Date | null;
  httpStatus: number | null;
  durationMs: number | null;
  responseBytes: number | null;
  value: number | null;
  snapshotId: string | null;
  errorCode: string | null;
  redactedError: string | null;
  finishedAt: Date;
}

/** An `api_poll` snapshot written by a sync run, with its provenance. */
export interface SyncSnapshot {
  id: string;
  kpiId: string;
  value: number | null;
  syncId: string;
  runId: string;
  configHash: string;
  recordedFor: string;
  observedAt: Date;
  providerRecordedAt: Date | null;
  createdAt: Date;
}

const RUN_SELECT = 'SELECT r.* FROM kpi_http_sync_runs r';

/** Runs of KPI HTTP syncs (history, scheduled claims) and the snapshots they write. */
@Injectable()
export class KpiSyncRunsRepository {
  constructor(private readonly sql: Sql) {}

  /** Run `runId` of the organization, or undefined. */
  find(orgId: string, runId: string, m?: Tx): Promise<SyncRunRow | undefined> {
    return this.sql.row<SyncRunRow>(`${RUN_SELECT} WHERE r.org_id = $1 AND r.id = $2`, [orgId, runId], m);
  }

  /** Number of runs of sync `syncId`. */
  async countOfSync(orgId: string, syncId: string, m?: Tx): Promise<number> {
    return (await this.sql.row<{ n: number }>('SELECT count(*)::int AS n FROM kpi_http_sync_runs WHERE org_id = $1 AND sync_id = $2', [orgId, syncId], m))!.n;
  }

  /** One page of the runs of sync `syncId`, newest first. */
  pageOfSync(orgId: string, syncId: string, limit: number, offset: number, m?: Tx): Promise<SyncRunRow[]> {
    return this.sql.rows<SyncRunRow>(
      `${RUN_SELECT} WHERE r.org_id = $1 AND r.sync_id = $2 ORDER BY r.created_at DESC, r.id DESC LIMIT $3 OFFSET $4`,
      [orgId, syncId, limit, offset],
      m,
    );
  }

  /** Records a run; with `onConflictSkip` a second scheduled run of the same slot is not inserted (answers false). */
  async insert(r: NewSyncRun, onConflictSkip: boolean, m?: Tx): Promise<boolean> {
    const rows = await this.sql.rows(
      `INSERT INTO kpi_http_sync_runs (org_id, id, sync_id, kpi_id, trigger, status, recorded_for, config_version, config_hash, triggered_by_member_id, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)${onConflictSkip ? " ON CONFLICT (org_id, sync_id, recorded_for) WHERE trigger = 'schedule' DO NOTHING" : ''} RETURNING id`,
      [r.orgId, r.id, r.syncId, r.kpiId, r.trigger, r.status, r.recordedFor, r.configVersion, r.configHash, r.triggeredByMemberId, r.createdAt],
      m,
    );
    return rows.length > 0;
  }

  /** Moves a queued run to `running`. */
  async markRunning(orgId: string, runId: string, m?: Tx): Promise<void> {
    await this.sql.run(`UPDATE kpi_http_sync_runs SET status = 'running' WHERE org_id = $1 AND id = $2 AND status = 'queued'`, [orgId, runId], m);
  }

  /** Records how run `runId` ended. */
  async finish(orgId: string, runId: string, r: SyncRunResult, m?: Tx): Promise<void> {
    await this.sql.run(
      `UPDATE kpi_http_sync_runs SET status = $3, observed_at = $4, provider_recorded_at = $5, http_status = $6, duration_ms = $7, response_bytes = $8,
           extracted_value = $9, snapshot_id = $10, error_code = $11, redacted_error = $12, finished_at = $13
         WHERE org_id = $1 AND id = $2`,
      [
        orgId,
        runId,
        r.status,
        r.observedAt,
        r.providerRecordedAt,
        r.httpStatus,
        r.durationMs,
        r.responseBytes,
        r.value,
        r.snapshotId,
        r.errorCode,
        r.redactedError,
        r.finishedAt,
      ],
      m,
    );
  }

  /**
   * Closes runs left queued or running since before `now` - `minutes` (optionally of one
   * organization) as errors with `errorCode`/`message`; answers how many.
   */
  async closeStale(now: Date, message: string, minutes: number, orgId: string | null, m?: Tx): Promise<number> {
    return (
      await this.sql.rows(
        `UPDATE kpi_http_sync_runs SET status = 'error', error_code = 'interrupted', redacted_error = $2, finished_at = $1
        WHERE status IN ('queued', 'running') AND created_at < $1::timestamptz - make_interval(mins => $3) AND ($4::uuid IS NULL OR org_id = $4)
        RETURNING id`,
        [now, message, minutes, orgId],
        m,
      )
    ).length;
  }

  /**
   * Writes the run's `api_poll` snapshot and moves its KPI's current value (tables of the strategy
   * module: the snapshot carries the sync's provenance, which KpisRepository.insertSnapshot does not write).
   */
  async writeSnapshot(orgId: string, s: SyncSnapshot, m: Tx): Promise<void> {
    await this.sql.run(
      `INSERT INTO kpi_snapshots (org_id, id, kpi_id, value, source, source_sync_id, source_sync_run_id, source_config_hash, source_recorded_for, observed_at, provider_recorded_at, created_at)
             VALUES ($1, $2, $3, $4, 'api_poll', $5, $6, $7, $8, $9, $10, $11)`,
      [orgId, s.id, s.kpiId, s.value, s.syncId, s.runId, s.configHash, s.recordedFor, s.observedAt, s.providerRecordedAt, s.createdAt],
      m,
    );
    await this.sql.run(
      'UPDATE kpis SET current_value = $3, last_recorded_at = $4, updated_at = $4 WHERE org_id = $1 AND id = $2',
      [orgId, s.kpiId, s.value, s.observedAt],
      m,
    );
  }
}
