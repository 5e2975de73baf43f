import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { EgressClient } from '../../common/egress/egress-client';
import { EgressError } from '../../common/egress/egress-error';
import { type AttemptRecord, type ClaimedDelivery, WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { type DeliveryRef, WebhookOutbox } from './webhook-outbox.service';
import { type StandardSigner, UnreadableSecretError, WebhookSecrets, serviceSignature, standardSigner } from './webhook-secrets';
import { DEFAULT_WEBHOOK_TIMING, MAX_RECEIVER_RESPONSE_BYTES, WEBHOOK_TIMING, type WebhookTiming } from './webhooks.constants';

type Claimed = ClaimedDelivery;

interface Destination {
  url: string;
  bearer: string | null;
  standard: StandardSigner | null;
}

/** HTTP parsers accept any three-digit status; one outside 100..599 is recorded without a code (it stays a failure). */
const recordable = (status: number | null): number | null => (status !== null && status >= 100 && status <= 599 ? status : null);

export type AttemptOutcome = 'delivered' | 'retrying' | 'retry_pending' | 'failed' | 'skipped' | 'lease_lost';

/** One attempt made, before its outcome is recorded. */
interface Attempted {
  d: Claimed;
  outcome: AttemptOutcome;
  record: AttemptRecord;
  counters: 'reset' | 'fail' | null;
  /** In-path retry: enqueue again after this long. */
  retryInMs?: number;
}

/**
 * One delivery attempt (worker). Claims the row (a lease, so a crashed worker's claim expires and
 * the drain re-enqueues it), signs the stored body with the delivery's pinned signing versions and
 * sends it to its pinned destination version through the egress client, then records the outcome:
 * - 2xx: `delivered` (even when the response body is over the read limit);
 * - 4xx: `failed`, no retry (the receiver refused this request; retrying the same bytes will not help);
 * - 5xx, network error, blocked address, redirect, timeout, oversized non-2xx response: retried after
 *   5 s and 30 s (Bull delayed jobs); then `retry_pending` with `next_retry_at`, redelivered by the
 *   15-minute sweep with doubling delays, `failed` after `maxAttempts` attempts in all;
 * - automatic deliveries of a disabled destination end `failed` / `destination_disabled`
 *   (ping and manual redelivery are still sent);
 * - a destination whose stored secrets do not open ends `failed` / `secret_unreadable`.
 * The outcome is recorded only while the row still carries this claim's lease token: when the
 * lease expired and another worker claimed the row meanwhile, this attempt's outcome is dropped
 * (`lease_lost`: nothing recorded, no retry scheduled; the newer attempt owns the row).
 * Retries keep the delivery id, idempotency key, body, schema version and pinned versions.
 */
@Injectable()
export class WebhookDeliverer {
  private readonly log = new Logger('WebhookDeliverer');
  private readonly timing: WebhookTiming;
  /** Versions and keys never change once written, so their decrypted form can be cached. */
  private readonly destinations = new Map<string, Destination>();
  private readonly keys = new Map<string, string>();

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly clock: Clock,
    private readonly egress: EgressClient,
    private readonly secrets: WebhookSecrets,
    private readonly outbox: WebhookOutbox,
    @Optional() @Inject(WEBHOOK_TIMING) timing?: Partial<WebhookTiming>,
  ) {
    this.timing = { ...DEFAULT_WEBHOOK_TIMING, ...(timing ?? {}) };
  }

  async attempt(ref: DeliveryRef): Promise<AttemptOutcome> {
    // the claim finds the row by its primary key alone (see WebhookDeliveriesRepository.claim)
    const d = await this.deliveries.claim(ref.orgId, ref.id, this.clock.now(), this.timing.leaseMs, randomUUID());
    if (!d) return 'skipped'; // delivered, failed, claimed by another worker, or not due yet
    const r = await this.send(d);
    const recorded = await this.deliveries.record(d, r.record, r.counters);
    return (await this.finish([r], recorded ? new Set([d.id]) : new Set()))[0];
  }

  /**
   * Attempts of several deliveries (one Bull job, e.g. the destinations of one event): one claim
   * statement (one lease token for the batch), the requests in parallel, one statement recording
   * every outcome still fenced by that token (and the destinations' failure counters of those);
   * in-path retries are enqueued one by one as usual. Answers the outcome of each delivery claimed
   * (the others are skipped: delivered, failed, held or not due).
   */
  async attemptMany(refs: DeliveryRef[]): Promise<AttemptOutcome[]> {
    if (!refs.length) return [];
    const claimed = await this.deliveries.claimMany(refs, this.clock.now(), this.timing.leaseMs, randomUUID());
    if (!claimed.length) return [];
    const results = await Promise.all(claimed.map((d) => this.send(d)));
    const recorded = await this.deliveries.recordMany(results.map((r) => ({ d: r.d, o: r.record, counters: r.counters })));
    return this.finish(results, recorded);
  }

  /** One claimed delivery: prepared, sent and judged (the caller records the outcome). */
  private async send(d: Claimed): Promise<Attempted> {
    if (!d.enabled && !d.manual) return this.judged(d, { status: 'failed', statusCode: null, errorCode: 'destination_disabled' }, false, 'failed');
    let dest: Destination;
    let signatures: Record<string, string>;
    try {
      dest = this.destination(d);
      signatures = this.signatureHeaders(d);
    } catch (e) {
      // e.g. secrets sealed under another SERVICE_ENCRYPTION_KEY or copied from another row:
      // retrying cannot help, so the delivery fails visibly instead of being re-claimed forever
      this.log.error(`Delivery ${d.id} cannot be prepared: ${(e as Error)?.message}`);
      const errorCode = e instanceof UnreadableSecretError ? 'secret_unreadable' : 'internal_error';
      return this.judged(d, { status: 'failed', statusCode: null, errorCode }, false, 'failed');
    }
    const timestamp = this.clock.now();
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'x-service-event': d.event,
      'x-service-delivery-id': d.delivery_id,
      'idempotency-key': d.delivery_id,
      ...signatures,
    };
    if (dest.bearer) headers.authorization = `Bearer ${dest.bearer}`;
    if (dest.standard) {
      headers['webhook-id'] = d.delivery_id;
      headers['webhook-timestamp'] = String(Math.floor(timestamp.getTime() / 1000));
      headers['webhook-signature'] = dest.standard(d.delivery_id, timestamp, d.body);
    }
    let statusCode: number | null;
    let errorCode: string | null = null;
    try {
      const res = await this.egress.request({
        url: dest.url,
        method: 'POST',
        headers,
        body: d.body,
        timeoutMs: this.timing.attemptTimeoutMs,
        maxResponseBytes: MAX_RECEIVER_RESPONSE_BYTES,
      });
      statusCode = recordable(res.status);
      if (res.status < 200 || res.status >= 300) errorCode = 'http_error';
    } catch (e) {
      if (!(e instanceof EgressError)) throw e;
      statusCode = recordable(e.status);
      // a 2xx proves acceptance: an oversized response body (never used) does not make the delivery fail
      errorCode = e.code === 'too_large' && statusCode !== null && statusCode >= 200 && statusCode < 300 ? null : e.code;
    }
    if (!errorCode) return this.judged(d, { status: 'delivered', statusCode, errorCode: null }, true, 'delivered');
    const permanent = errorCode === 'invalid_url' || (errorCode === 'http_error' && statusCode !== null && statusCode < 500);
    const attempts = d.attempts + 1;
    if (permanent || attempts >= this.timing.maxAttempts) return this.judged(d, { status: 'failed', statusCode, errorCode }, false, 'failed');
    const inPath = this.timing.retryDelaysMs[attempts - 1];
    const delay = inPath ?? Math.min(this.timing.sweepBaseDelayMs * 2 ** (attempts - 1 - this.timing.retryDelaysMs.length), this.timing.sweepMaxDelayMs);
    const nextRetryAt = new Date(this.clock.now().getTime() + delay);
    if (inPath === undefined) return this.judged(d, { status: 'retry_pending', statusCode, errorCode, nextRetryAt }, false, 'retry_pending');
    return { ...this.judged(d, { status: 'pending', statusCode, errorCode, nextRetryAt }, false, 'retrying'), retryInMs: delay };
  }

  /** The outcome to record, with the destination's failure counters: reset after a success (when failing), count a failure. */
  private judged(
    d: Claimed,
    o: { status: string; statusCode: number | null; errorCode: string | null; nextRetryAt?: Date },
    ok: boolean,
    outcome: AttemptOutcome,
  ): Attempted {
    const counters = ok ? (d.consecutive_failures === 0 ? null : 'reset') : 'fail';
    return {
      d,
      outcome,
      counters,
      record: { status: o.status, statusCode: o.statusCode, errorCode: o.errorCode, nextRetryAt: o.nextRetryAt ?? null, at: this.clock.now() },
    };
  }

  /**
   * After recording: an attempt whose row no longer carried its lease token (`recorded` lacks it)
   * is `lease_lost` (nothing written, no retry); in-path retries of the others go back on the queue
   * with their delay (if such an enqueue is lost, the drain picks the row up once due).
   */
  private async finish(results: Attempted[], recorded: ReadonlySet<string>): Promise<AttemptOutcome[]> {
    const outcomes: AttemptOutcome[] = [];
    for (const r of results) {
      if (!recorded.has(r.d.id)) {
        this.log.warn(`Delivery ${r.d.id}: lease lost to another worker; outcome ${r.record.status}/${r.record.errorCode ?? 'ok'} not recorded`);
        outcomes.push('lease_lost');
        continue;
      }
      if (r.retryInMs !== undefined) await this.outbox.enqueue([{ orgId: r.d.org_id, id: r.d.id, attempts: r.d.attempts + 1 }], r.retryInMs);
      outcomes.push(r.outcome);
    }
    return outcomes;
  }

  private destination(d: Claimed): Destination {
    let dest = this.destinations.get(d.version_id);
    if (!dest) {
      const open = (stored: string, field: 'url' | 'bearer' | 'standard') =>
        this.secrets.open(stored, { kind: 'version', orgId: d.org_id, webhookId: d.webhook_id, versionId: d.version_id, field });
      const std = d.standard_secret_enc ? open(d.standard_secret_enc, 'standard') : null;
      dest = {
        url: open(d.url_enc, 'url'),
        bearer: d.auth_type === 'bearer' && d.bearer_enc ? open(d.bearer_enc, 'bearer') : null,
        standard: std ? standardSigner(std) : null,
      };
      if (this.destinations.size > 10_000) this.destinations.clear();
      this.destinations.set(d.version_id, dest);
    }
    return dest;
  }

  /**
   * `X-Service-Signature` with the primary (first pinned) version; `X-Service-Signature-Version`
   * names it; `X-Service-Signatures` lists every pinned version, primary first:
   * `v2=sha256=<hex>,v1=sha256=<hex>`.
   */
  private signatureHeaders(d: Claimed): Record<string, string> {
    const byVersion = new Map((d.keys ?? []).map((k) => [k.version, k.key_enc]));
    const sigs: string[] = [];
    let primary: string | null = null;
    for (const v of d.signing_versions) {
      const enc = byVersion.get(v);
      if (!enc) continue;
      const cacheKey = `${d.org_id}:${d.webhook_id}:${v}`;
      let key = this.keys.get(cacheKey);
      if (!key) {
        key = this.secrets.open(enc, { kind: 'signing-key', orgId: d.org_id, webhookId: d.webhook_id, version: v });
        if (this.keys.size > 10_000) this.keys.clear();
        this.keys.set(cacheKey, key);
      }
      const sig = serviceSignature(key, d.body);
      primary ??= `${v}|${sig}`;
      sigs.push(`v${v}=${sig}`);
    }
    if (!primary) throw new Error(`Delivery ${d.id} has no signing key`);
    const [version, signature] = primary.split('|');
    return { 'x-service-signature': signature, 'x-service-signature-version': `v${version}`, 'x-service-signatures': sigs.join(',') };
  }
}
