import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { EgressClient } from '../../common/egress/egress-client';
import { EgressError } from '../../common/egress/egress-error';
import { DomainError, Errors } from '../../common/errors/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { KpiSyncStore, type SyncRow } from './kpi-syncs.store';
import { evaluatePointer, numericValue, referencedSecrets, scaledValue, validateSyncConfig } from './sync-config';
import { recordedFor } from './sync-schedule';

export type RunTrigger = 'dry_run' | 'preview' | 'manual' | 'schedule';

/** Limits of one sync request (mutable so tests can inject short ones). */
export class KpiSyncLimits {
  timeoutMs = 10_000;
  maxResponseBytes = 1024 * 1024;
}

/** Fixed, safe texts per error code: run history never carries provider content or secrets. */
export const RUN_ERRORS: Record<string, string> = {
  host_not_allowlisted: 'The destination host is no longer on the organization allowlist',
  config_invalid: 'The stored configuration no longer passes validation',
  secret_missing: 'A secret referenced by the configuration is not set (or was sealed with another key)',
  blocked_address: 'The destination host resolves to a non-public address',
  dns_failure: 'The destination host could not be resolved',
  timeout: 'The provider did not answer completely within the time limit',
  too_large: 'The response was larger than the size limit',
  redirect: 'The provider answered with a redirect; redirects are not followed',
  network_error: 'The connection to the provider failed',
  invalid_url: 'The destination URL was refused',
  http_error: 'The provider answered with a non-success HTTP status',
  not_json: 'The response is not JSON (Content-Type must be application/json)',
  invalid_json: 'The response body is not valid JSON',
  pointer_not_found: 'The JSON pointer names nothing in the response',
  value_not_numeric: 'The value at the JSON pointer is not a number',
  provider_timestamp_invalid: 'The provider timestamp is missing or not an ISO 8601 time or Unix seconds',
  stale_value: 'The provider value is older than freshness_config.maxAgeHours',
  sync_changed: 'The sync configuration or status changed during the run; nothing was written',
  kpi_not_syncable: 'The KPI computes its own value (formula) and takes no HTTP snapshots',
  interrupted: 'The run was interrupted before it finished',
  internal_error: 'The run failed unexpectedly',
};

class RunFailure extends Error {
  constructor(
    readonly code: keyof typeof RUN_ERRORS,
    readonly httpStatus: number | null = null,
  ) {
    super(code);
  }
}

interface Outcome {
  observedAt: Date;
  httpStatus: number | null;
  durationMs: number | null;
  responseBytes: number | null;
  value: number | null;
  providerRecordedAt: Date | null;
  failure: RunFailure | null;
}

const JSON_TYPE = /^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i;

/** A provider time: ISO 8601 with a zone, or Unix seconds. */
function providerTime(v: unknown): Date | null {
  if (typeof v === 'number' && Number.isFinite(v) && v > 0 && v < 1e11) return new Date(v * 1000);
  if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i.test(v)) {
    const d = new Date(v);
    return Number.isNaN(d.getTime()) ? null : d;
  }
  return null;
}

/**
 * Executes sync runs through the shared SSRF-safe egress client (GET, no redirects, time and size
 * limits, JSON only) and records them. A successful run that may write (published sync, scheduled
 * or admin-confirmed) adds an `api_poll` snapshot with its provenance and moves the KPI's
 * `current_value` in one transaction, after re-checking under a row lock that the sync is still
 * published with the same configuration hash.
 *
 * With SERVICE_KPI_SYNC_TEST_ORIGIN (tests only, refused in production) the request goes to that
 * loopback origin with the configured path instead of the configured host.
 */
@Injectable()
export class KpiSyncRunner {
  private readonly logger = new Logger('KpiSyncRunner');

  constructor(
    private readonly store: KpiSyncStore,
    private readonly egress: EgressClient,
    private readonly clock: Clock,
    readonly limits: KpiSyncLimits,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Inserts a run row (`running`, or `queued` for scheduled claims). */
  async insertRun(
    m: EntityManager,
    s: SyncRow,
    trigger: RunTrigger,
    status: 'queued' | 'running',
    recorded: string,
    memberId: string | null,
    onConflictSkip = false,
  ): Promise<string | null> {
    const id = randomUUID();
    const rows: unknown[] = await m.query(
      `INSERT INTO kpi_http_sync_runs (org_id, id, sync_id, kpi_id, trigger, status, recorded_for, config_version, config_hash, triggered_by_member_id, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)${onConflictSkip ? " ON CONFLICT (org_id, sync_id, recorded_for) WHERE trigger = 'schedule' DO NOTHING" : ''} RETURNING id`,
      [s.org_id, id, s.id, s.kpi_id, trigger, status, recorded, s.config_version, s.config_hash, memberId, this.clock.now()],
    );
    return rows.length ? id : null;
  }

  /** One run of a sync now (dry run, preview or confirmed manual run), recorded; returns the run row. */
  async runNow(s: SyncRow, trigger: Exclude<RunTrigger, 'schedule'>, memberId: string): Promise<Record<string, any>> {
    const runId = (await this.insertRun(this.store.db.manager, s, trigger, 'running', recordedFor(s.schedule, this.clock.now()), memberId))!;
    const run = await this.execute(s, runId, trigger === 'manual');
    if (!run) throw Errors.notFound('KPI HTTP sync not found'); // deleted with its KPI during the run
    return run;
  }

  /**
   * Executes a recorded run (queued or running) of `s` and finishes it; never throws for provider
   * failures. Null when the run is gone (its KPI was deleted meanwhile).
   */
  async execute(s: SyncRow, runId: string, writeSnapshot: boolean): Promise<Record<string, any> | null> {
    await this.store.db.query(`UPDATE kpi_http_sync_runs SET status = 'running' WHERE org_id = $1 AND id = $2 AND status = 'queued'`, [s.org_id, runId]);
    let outcome: Outcome;
    try {
      outcome = await this.fetchValue(s);
    } catch (e) {
      this.logger.error(`KPI HTTP sync run ${runId} (sync ${s.id}) failed unexpectedly: ${(e as Error)?.name ?? 'error'}`);
      outcome = { observedAt: this.clock.now(), httpStatus: null, durationMs: null, responseBytes: null, value: null, providerRecordedAt: null, failure: new RunFailure('internal_error') };
    }
    await this.finish(s, runId, outcome, writeSnapshot);
    if (outcome.failure) this.logger.warn(`KPI HTTP sync run ${runId} (sync ${s.id}) ended with ${outcome.failure.code}`);
    return (await this.store.run(this.store.db.manager, s.org_id, runId)) ?? null;
  }

  /** The request and the extraction; failures come back in `failure` with a stable code. */
  private async fetchValue(s: SyncRow): Promise<Outcome> {
    const t0 = performance.now();
    const out: Outcome = { observedAt: this.clock.now(), httpStatus: null, durationMs: null, responseBytes: null, value: null, providerRecordedAt: null, failure: null };
    const fail = (code: keyof typeof RUN_ERRORS, status: number | null = null): Outcome => ({ ...out, failure: new RunFailure(code, status) });

    const allowlist = await this.store.allowlist(this.store.db.manager, s.org_id);
    let url: URL;
    try {
      const checked = validateSyncConfig({ request: s.request_config, extraction: s.extraction_config, freshness: s.freshness_config }, allowlist);
      url = new URL(checked.request_config.url);
    } catch (e) {
      if (!(e instanceof DomainError)) throw e;
      return fail(allowlist.has(new URL(s.request_config.url).hostname) ? 'config_invalid' : 'host_not_allowlisted');
    }
    const names = referencedSecrets(s);
    const { values, missing } = await this.store.openSecrets(s.org_id, s.id, names);
    if (missing.length) return fail('secret_missing');
    const headers: Record<string, string> = { accept: 'application/json' };
    for (const [name, h] of Object.entries(s.request_config.headers ?? {})) headers[name.toLowerCase()] = h.format.replace('{value}', values.get(h.secretRef)!);

    const target = this.config.kpiSyncTestOrigin ? `${this.config.kpiSyncTestOrigin}${url.pathname}` : url.href;
    let res;
    try {
      res = await this.egress.request({
        url: target,
        method: 'GET',
        headers,
        timeoutMs: this.limits.timeoutMs,
        maxResponseBytes: this.limits.maxResponseBytes,
        allowLoopback: this.config.kpiSyncTestOrigin !== null,
      });
    } catch (e) {
      if (e instanceof EgressError) return { ...fail(e.code, e.status), durationMs: Math.round(performance.now() - t0) };
      throw e;
    }
    const base: Outcome = { ...out, observedAt: this.clock.now(), httpStatus: res.status, durationMs: Math.round(res.durationMs), responseBytes: res.body.length };
    const failed = (code: keyof typeof RUN_ERRORS): Outcome => ({ ...base, failure: new RunFailure(code, res.status) });
    if (res.status < 200 || res.status >= 300) return failed('http_error');
    const type = res.headers['content-type'];
    if (typeof type !== 'string' || !JSON_TYPE.test(type)) return failed('not_json');
    let doc: unknown;
    try {
      doc = JSON.parse(res.body.toString('utf8'));
    } catch {
      return failed('invalid_json');
    }
    const raw = evaluatePointer(doc, s.extraction_config.pointer);
    if (raw === undefined) return failed('pointer_not_found');
    const n = numericValue(raw);
    if (n === null) return failed('value_not_numeric');
    const value = scaledValue(n, s.extraction_config.numeric);
    if (!Number.isFinite(value)) return failed('value_not_numeric'); // a huge fraction scaled to percent points overflows
    let providerRecordedAt: Date | null = null;
    const tsPointer = s.freshness_config?.providerTimestampPointer;
    if (tsPointer !== undefined) {
      providerRecordedAt = providerTime(evaluatePointer(doc, tsPointer));
      if (!providerRecordedAt) return { ...failed('provider_timestamp_invalid'), value };
      const maxAge = s.freshness_config.maxAgeHours;
      if (maxAge !== undefined && base.observedAt.getTime() - providerRecordedAt.getTime() > maxAge * 3_600_000) {
        return { ...failed('stale_value'), value, providerRecordedAt };
      }
    }
    return { ...base, value, providerRecordedAt };
  }

  private async finish(s: SyncRow, runId: string, o: Outcome, writeSnapshot: boolean): Promise<void> {
    await this.store.db.transaction(async (m) => {
      let failure = o.failure;
      let snapshotId: string | null = null;
      const current = await m.query('SELECT status, config_hash FROM kpi_http_syncs WHERE org_id = $1 AND id = $2 FOR UPDATE', [s.org_id, s.id]);
      if (!failure && writeSnapshot) {
        const kpi = await m.query('SELECT source_type FROM kpis WHERE org_id = $1 AND id = $2 FOR UPDATE', [s.org_id, s.kpi_id]);
        if (!current[0] || current[0].status !== 'published' || current[0].config_hash !== s.config_hash) failure = new RunFailure('sync_changed', o.httpStatus);
        else if (!kpi[0] || kpi[0].source_type === 'formula') failure = new RunFailure('kpi_not_syncable', o.httpStatus);
        else {
          snapshotId = randomUUID();
          const run = await this.store.run(m, s.org_id, runId);
          await m.query(
            `INSERT INTO kpi_snapshots (org_id, id, kpi_id, value, source, source_sync_id, source_sync_run_id, source_config_hash, source_recorded_for, observed_at, provider_recorded_at, created_at)
             VALUES ($1, $2, $3, $4, 'api_poll', $5, $6, $7, $8, $9, $10, $11)`,
            [s.org_id, snapshotId, s.kpi_id, o.value, s.id, runId, s.config_hash, run!.recorded_for, o.observedAt, o.providerRecordedAt, this.clock.now()],
          );
          await m.query('UPDATE kpis SET current_value = $3, last_recorded_at = $4, updated_at = $4 WHERE org_id = $1 AND id = $2', [s.org_id, s.kpi_id, o.value, o.observedAt]);
        }
      }
      const status = failure ? 'error' : 'success';
      await m.query(
        `UPDATE kpi_http_sync_runs SET status = $3, observed_at = $4, provider_recorded_at = $5, http_status = $6, duration_ms = $7, response_bytes = $8,
           extracted_value = $9, snapshot_id = $10, error_code = $11, redacted_error = $12, finished_at = $13
         WHERE org_id = $1 AND id = $2`,
        [
          s.org_id,
          runId,
          status,
          o.observedAt,
          o.providerRecordedAt,
          failure?.httpStatus ?? o.httpStatus,
          o.durationMs,
          o.responseBytes,
          o.value,
          snapshotId,
          failure?.code ?? null,
          failure ? RUN_ERRORS[failure.code] + (failure.httpStatus && failure.code === 'http_error' ? ` (HTTP ${failure.httpStatus})` : '') : null,
          this.clock.now(),
        ],
      );
      if (current[0]) {
        await m.query('UPDATE kpi_http_syncs SET last_run_at = $3, last_run_status = $4 WHERE org_id = $1 AND id = $2', [s.org_id, s.id, o.observedAt, status]);
      }
    });
  }
}
