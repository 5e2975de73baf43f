import { Process, Processor } from '@nestjs/bull';
import { Inject, Logger } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { isBoundText } from '../../common/crypto/secret-box';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { batches } from '../../database/batches';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { type SecretBinding, WebhookSecrets } from './webhook-secrets';
import { MAINTENANCE_BATCH_SIZE, MAINTENANCE_JOB, MAINTENANCE_MAX_BATCHES, WEBHOOKS_QUEUE } from './webhooks.constants';
import { type KeyCursor, type RowCursor, WebhooksRepository } from './webhooks.repository';

export interface WebhookMaintenanceResult {
  /** Finished deliveries deleted (older than WEBHOOK_DELIVERY_RETENTION_DAYS). */
  deleted: number;
  /** Payloads dropped (delivered more than WEBHOOK_PAYLOAD_RETENTION_DAYS ago). */
  payloadsDropped: number;
  /** Destination versions and signing keys whose values sealed without binding were sealed again with it. */
  resealed: number;
  /** Rows holding a value sealed without binding that does not open (another key); left as they are. */
  unreadable: number;
}

export interface WebhookMaintenanceOptions {
  batchSize?: number;
  maxBatches?: number;
}

const NIL = '00000000-0000-0000-0000-000000000000';
const DAY_MS = 24 * 3600_000;

/**
 * Hourly webhook maintenance (Bull job `maintenance` on the `webhooks` queue, enqueued by
 * WebhookMaintenanceScheduler), three steps, each in batches of at most 1,000 rows, one short
 * statement per batch (no long locks; rows held by another transaction are skipped):
 * 1. values sealed before secrets were bound to their row (`v1.`) are sealed again with their
 *    binding (compare and set: a concurrent change wins); found through partial indexes, so once
 *    none is left this step reads nothing;
 * 2. finished (delivered or failed) deliveries created more than WEBHOOK_DELIVERY_RETENTION_DAYS
 *    ago are deleted (pending and retry_pending rows are never deleted: they end within ~1.3 days);
 * 3. payloads of deliveries delivered more than WEBHOOK_PAYLOAD_RETENTION_DAYS ago are dropped;
 *    their history rows stay (`payload_retained: false`; redelivery is then 409).
 */
@Processor(WEBHOOKS_QUEUE)
export class WebhookMaintenanceProcessor {
  private readonly log = new Logger('WebhookMaintenance');

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly webhooks: WebhooksRepository,
    private readonly secrets: WebhookSecrets,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Process(MAINTENANCE_JOB)
  handle(): Promise<WebhookMaintenanceResult> {
    return this.run(this.clock.now());
  }

  /** One maintenance run at `now` (callable directly in tests). */
  async run(now: Date, o: WebhookMaintenanceOptions = {}): Promise<WebhookMaintenanceResult> {
    const size = o.batchSize ?? MAINTENANCE_BATCH_SIZE;
    const max = o.maxBatches ?? MAINTENANCE_MAX_BATCHES;
    const { resealed, unreadable } = await this.reseal(size, max);
    const expiredBefore = new Date(now.getTime() - this.config.webhookDeliveryRetentionDays * DAY_MS);
    const deleted = await batches(size, max, (n) => this.deliveries.deleteExpired(expiredBefore, n));
    const prunedBefore = new Date(now.getTime() - this.config.webhookPayloadRetentionDays * DAY_MS);
    const payloadsDropped = await batches(size, max, (n) => this.deliveries.dropPayloads(prunedBefore, n));
    const result = { deleted, payloadsDropped, resealed, unreadable };
    if (deleted || payloadsDropped || resealed) this.log.log(`webhook maintenance: ${JSON.stringify(result)}`);
    if (unreadable) this.log.warn(`webhook maintenance: ${unreadable} destination versions or signing keys do not open (another SERVICE_ENCRYPTION_KEY?)`);
    return result;
  }

  /** Step 1: destination versions, then signing keys. */
  private async reseal(size: number, max: number): Promise<{ resealed: number; unreadable: number }> {
    let resealed = 0;
    let unreadable = 0;
    // a value that is already bound or null stays; one that does not open stays too (and is counted)
    const next = (stored: string | null, b: SecretBinding): string | null => (stored === null ? null : (this.secrets.reseal(stored, b) ?? stored));
    const tally = (before: Array<string | null>, after: Array<string | null>) => {
      if (after.some((v) => v !== null && !isBoundText(v))) unreadable++;
      return after.some((v, i) => v !== before[i]);
    };
    let at: RowCursor = { orgId: NIL, id: NIL };
    for (let b = 0; b < max; b++) {
      const rows = await this.webhooks.legacySealedVersions(at, size);
      for (const v of rows) {
        const bind = (field: 'url' | 'bearer' | 'standard'): SecretBinding => ({
          kind: 'version',
          orgId: v.org_id,
          webhookId: v.webhook_id,
          versionId: v.id,
          field,
        });
        const sealed = {
          url_enc: next(v.url_enc, bind('url'))!,
          bearer_enc: next(v.bearer_enc, bind('bearer')),
          standard_secret_enc: next(v.standard_secret_enc, bind('standard')),
        };
        const changed = tally([v.url_enc, v.bearer_enc, v.standard_secret_enc], [sealed.url_enc, sealed.bearer_enc, sealed.standard_secret_enc]);
        if (changed && (await this.webhooks.resealVersion(v, sealed))) resealed++;
      }
      if (rows.length < size) break;
      at = { orgId: rows[rows.length - 1].org_id, id: rows[rows.length - 1].id };
    }
    let key: KeyCursor = { orgId: NIL, webhookId: NIL, version: 0 };
    for (let b = 0; b < max; b++) {
      const rows = await this.webhooks.legacySealedSigningKeys(key, size);
      for (const k of rows) {
        const sealed = next(k.key_enc, { kind: 'signing-key', orgId: k.org_id, webhookId: k.webhook_id, version: k.version })!;
        if (tally([k.key_enc], [sealed]) && (await this.webhooks.resealSigningKey(k, sealed))) resealed++;
      }
      if (rows.length < size) break;
      const last = rows[rows.length - 1];
      key = { orgId: last.org_id, webhookId: last.webhook_id, version: last.version };
    }
    return { resealed, unreadable };
  }
}
