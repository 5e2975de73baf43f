import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { EgressClient } from '../../common/egress/egress-client';
import { EgressError } from '../../common/egress/egress-error';
import { DomainError, Errors } from '../../common/errors/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import type { Tx } from '../../database/sql.service';
import { KpisRepository } from '../strategy/kpis.repository';
import { KpiSyncScope } from './kpi-sync-scope.service';
import { KpiSyncRunsRepository, type SyncRunRow } from './kpi-sync-runs.repository';
import { KpiSyncsRepository, type SyncRow } from './kpi-syncs.repository';
import { evaluatePointer, numericValue, referencedSecrets, scaledValue, validateSyncConfig } from './sync-config';
import { recordedFor } from './sync-schedule';
import { TxRunner } from '../../database/tx-runner';

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
/** An outcome before (or without) any response. */
const noResponse = (observedAt: Date, failure: RunFailure | null): Outcome => ({
  observedAt,
  httpStatus: null,
  durationMs: null,
  responseBytes: null,
  value: null,
  providerRecordedAt: null,
  failure,
});

@Injectable()
export class KpiSyncRunner {
  private readonly logger = new Logger('KpiSyncRunner');

  constructor(
    private readonly tx: TxRunner,
    private readonly scope: KpiSyncScope,
    private readonly syncs: KpiSyncsRepository,
    private readonly runs: KpiSyncRunsRepository,
    private readonly kpis: KpisRepository,
    private readonly egress: EgressClient,
    private readonly clock: Clock,
    readonly limits: KpiSyncLimits,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Inserts a run row (`running`, or `queued` for scheduled claims). */
  async insertRun(
    m: Tx,
    s: SyncRow,
    trigger: RunTrigger,
    status: 'queued' | 'running',
    recorded: string,
    memberId: string | null,
    onConflictSkip = false,
  ): Promise<string | null> {
    const id = randomUUID();
    const inserted = await this.runs.insert(
      {
        orgId: s.org_id,
        id,
        syncId: s.id,
        kpiId: s.kpi_id,
        trigger,
        status,
        recordedFor: recorded,
        configVersion: s.config_version,
        configHash: s.config_hash,
        triggeredByMemberId: memberId,
        createdAt: this.clock.now(),
      },
      onConflictSkip,
      m,
    );
    return inserted ? id : null;
  }

  /** One run of a sync now (dry run, preview or confirmed manual run), recorded; returns the run row. */
  async runNow(s: SyncRow, trigger: Exclude<RunTrigger, 'schedule'>, memberId: string): Promise<SyncRunRow> {
    const runId = (await this.insertRun(undefined, s, trigger, 'running', recordedFor(s.schedule, this.clock.now()), memberId))!;
    const run = await this.execute(s, runId, trigger === 'manual');
    if (!run) throw Errors.notFound('KPI HTTP sync not found'); // deleted with its KPI during the run
    return run;
  }

  /**
   * Executes a recorded run (queued or running) of `s` and finishes it; never throws for provider
   * failures. Null when the run is gone (its KPI was deleted meanwhile).
   */
  async execute(s: SyncRow, runId: string, writeSnapshot: boolean): Promise<SyncRunRow | null> {
    await this.runs.markRunning(s.org_id, runId);
    let outcome: Outcome;
    try {
      outcome = await this.fetchValue(s);
    } catch (e) {
      this.logger.error(`KPI HTTP sync run ${runId} (sync ${s.id}) failed unexpectedly: ${(e as Error)?.name ?? 'error'}`);
      outcome = noResponse(this.clock.now(), new RunFailure('internal_error'));
    }
    await this.finish(s, runId, outcome, writeSnapshot);
    if (outcome.failure) this.logger.warn(`KPI HTTP sync run ${runId} (sync ${s.id}) ended with ${outcome.failure.code}`);
    return (await this.runs.find(s.org_id, runId)) ?? null;
  }

  /** The request and the extraction; failures come back in `failure` with a stable code. */
  private async fetchValue(s: SyncRow): Promise<Outcome> {
    const t0 = performance.now();
    const out = noResponse(this.clock.now(), null);
    const fail = (code: keyof typeof RUN_ERRORS, status: number | null = null): Outcome => ({ ...out, failure: new RunFailure(code, status) });

    const allowlist = await this.scope.allowlist(s.org_id);
    let url: URL;
    try {
      const checked = validateSyncConfig({ request: s.request_config, extraction: s.extraction_config, freshness: s.freshness_config }, allowlist);
      url = new URL(checked.request_config.url);
    } catch (e) {
      if (!(e instanceof DomainError)) throw e;
      return fail(allowlist.has(new URL(s.request_config.url).hostname) ? 'config_invalid' : 'host_not_allowlisted');
    }
    const names = referencedSecrets(s);
    const { values, missing } = await this.scope.openSecrets(s.org_id, s.id, names);
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
    const base: Outcome = {
      ...out,
      observedAt: this.clock.now(),
      httpStatus: res.status,
      durationMs: Math.round(res.durationMs),
      responseBytes: res.body.length,
    };
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
    await this.tx.run(async (m) => {
      let failure = o.failure;
      let snapshotId: string | null = null;
      const current = await this.syncs.lockState(s.org_id, s.id, m);
      if (!failure && writeSnapshot) {
        const kpi = await this.kpis.lockSourceType(s.org_id, s.kpi_id, m);
        if (!current || current.status !== 'published' || current.config_hash !== s.config_hash) failure = new RunFailure('sync_changed', o.httpStatus);
        else if (!kpi || kpi.source_type === 'formula') failure = new RunFailure('kpi_not_syncable', o.httpStatus);
        else {
          snapshotId = randomUUID();
          const run = await this.runs.find(s.org_id, runId, m);
          await this.runs.writeSnapshot(
            s.org_id,
            {
              id: snapshotId,
              kpiId: s.kpi_id,
              value: o.value,
              syncId: s.id,
              runId,
              configHash: s.config_hash,
              recordedFor: run!.recorded_for,
              observedAt: o.observedAt,
              providerRecordedAt: o.providerRecordedAt,
              createdAt: this.clock.now(),
            },
            m,
          );
        }
      }
      const status = failure ? 'error' : 'success';
      await this.runs.finish(
        s.org_id,
        runId,
        {
          status,
          observedAt: o.observedAt,
          providerRecordedAt: o.providerRecordedAt,
          httpStatus: failure?.httpStatus ?? o.httpStatus,
          durationMs: o.durationMs,
          responseBytes: o.responseBytes,
          value: o.value,
          snapshotId,
          errorCode: failure?.code ?? null,
          redactedError: failure
            ? RUN_ERRORS[failure.code] + (failure.httpStatus && failure.code === 'http_error' ? ` (HTTP ${failure.httpStatus})` : '')
            : null,
          finishedAt: this.clock.now(),
        },
        m,
      );
      if (current) await this.syncs.setLastRun(s.org_id, s.id, o.observedAt, status, m);
    });
  }
}
