import { randomUUID } from 'node:crypto';
import { InjectQueue } from '@nestjs/bull';
import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { Queue } from 'bull';
import { DataSource, type EntityManager, type EntitySubscriberInterface, type TransactionCommitEvent, type TransactionRollbackEvent } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { Errors } from '../../common/errors/domain-error';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { AUTOMATION_SCHEMA_VERSION, DELIVER_BATCH_JOB, DELIVER_JOB, DELIVERY_BATCH, type DeliveryEvent, WEBHOOKS_QUEUE } from './webhooks.constants';
import { type DestinationFilter, type PinnedDestination, WebhooksRepository } from './webhooks.repository';

export type { PinnedDestination } from './webhooks.repository';

/** What a Bull job carries: the delivery row and the attempt it is for (the row is the truth). */
export interface DeliveryRef {
  orgId: string;
  id: string;
  attempts: number;
}

export interface NewDelivery {
  orgId: string;
  webhookId: string;
  versionId: string;
  signingVersions: number[];
  event: DeliveryEvent;
  schemaVersion: number;
  body: string;
  issueId?: string | null;
  automationRuleId?: string | null;
  redeliveryOf?: string | null;
}

const PENDING = Symbol('webhookDeliveriesAfterCommit');
type Held = { [PENDING]?: DeliveryRef[] };

/** Bull job id of one attempt: adding it twice while it waits is a no-op. */
export const jobIdOf = (r: DeliveryRef): string => `${r.orgId}:${r.id}:${r.attempts}`;

/**
 * The webhook outbox. Delivery rows are written in the caller's transaction (so a delivery exists
 * exactly when the change that caused it committed) and put on the Bull queue after the commit.
 * If Redis or the worker is down then, nothing is lost: the worker's drain (WebhookDrain) enqueues
 * pending rows that have no job. Used by the API (issue events, ping, redelivery), by automation
 * rules (`send_webhook`, through the two methods below) and by the worker (retries).
 *
 * Automation contract (stable):
 * - `assertAutomationDestination(m, orgId, webhookId)`: 400 unless the webhook exists in that
 *   organization, is enabled and has purpose `automation` or `both`;
 * - `enqueueAutomationAction(m, { orgId, webhookId, ruleId, body })`: one `automation.action`
 *   delivery (schema version 3, `body` serialized exactly as given) in m's transaction, enqueued
 *   after commit (or at once when m has no transaction). `deliveryId` is the delivery record id
 *   (the `id` of the history rows, what redeliver takes), not the X-Service-Delivery-Id header value.
 */
@Injectable()
export class WebhookOutbox implements OnModuleInit, EntitySubscriberInterface {
  private readonly log = new Logger('WebhookOutbox');

  constructor(
    private readonly db: DataSource,
    private readonly clock: Clock,
    private readonly webhooks: WebhooksRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    @InjectQueue(WEBHOOKS_QUEUE) private readonly queue: Queue,
  ) {}

  onModuleInit(): void {
    if (!this.db.subscribers.includes(this)) this.db.subscribers.push(this);
  }

  async assertAutomationDestination(m: EntityManager, orgId: string, webhookId: string): Promise<void> {
    await this.automationDestination(m, orgId, webhookId);
  }

  async enqueueAutomationAction(
    m: EntityManager,
    args: { orgId: string; webhookId: string; ruleId: string; body: Record<string, unknown> },
  ): Promise<{ deliveryId: string }> {
    const dest = await this.automationDestination(m, args.orgId, args.webhookId);
    const [row] = await this.insert(m, [
      {
        orgId: args.orgId,
        webhookId: dest.id,
        versionId: dest.version_id,
        signingVersions: dest.signing_versions,
        event: 'automation.action',
        schemaVersion: AUTOMATION_SCHEMA_VERSION,
        body: JSON.stringify(args.body),
        automationRuleId: args.ruleId,
      },
    ]);
    this.afterCommit(m, [row]);
    return { deliveryId: row.id };
  }

  private async automationDestination(m: EntityManager, orgId: string, webhookId: string): Promise<PinnedDestination> {
    const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(String(webhookId));
    const [dest] = isUuid ? await this.destinations(m, orgId, { webhookId, purposes: ['automation', 'both'] }) : [];
    if (!dest) throw Errors.validation('webhook_id must name an enabled webhook of this organization with purpose automation or both');
    return dest;
  }

  /**
   * Enabled destinations of an organization with what a new delivery pins: all subscribers of
   * `event`, or one webhook (`webhookId`, any events; `purposes` narrows it; `includeDisabled` for ping/redelivery).
   */
  destinations(m: EntityManager, orgId: string, f: DestinationFilter): Promise<PinnedDestination[]> {
    return this.webhooks.destinations(orgId, this.clock.now(), f, m);
  }

  /** Inserts delivery rows (new delivery ids) in m's transaction. */
  async insert(m: EntityManager, rows: NewDelivery[]): Promise<DeliveryRef[]> {
    if (!rows.length) return [];
    const ids = rows.map(() => randomUUID());
    const now = this.clock.now();
    await this.deliveries.insert(
      rows.map((r, i) => ({
        org_id: r.orgId,
        id: ids[i],
        webhook_id: r.webhookId,
        version_id: r.versionId,
        signing_versions: r.signingVersions,
        delivery_id: randomUUID(),
        event: r.event,
        schema_version: r.schemaVersion,
        body: r.body,
        issue_id: r.issueId ?? null,
        automation_rule_id: r.automationRuleId ?? null,
        redelivery_of: r.redeliveryOf ?? null,
      })),
      now,
      m,
    );
    return rows.map((r, i) => ({ orgId: r.orgId, id: ids[i], attempts: 0 }));
  }

  /** Enqueues after m's transaction commits (dropped on rollback); at once without a transaction. */
  afterCommit(m: EntityManager, refs: DeliveryRef[]): void {
    if (!refs.length) return;
    const qr = m.queryRunner;
    if (qr?.isTransactionActive) ((qr.data as Held)[PENDING] ??= []).push(...refs);
    else void this.enqueue(refs);
  }

  afterTransactionCommit(event: TransactionCommitEvent): void {
    const qr = event.queryRunner;
    if (qr.isTransactionActive) return; // a savepoint was released; the outer transaction decides
    const held = (qr.data as Held)[PENDING];
    delete (qr.data as Held)[PENDING];
    if (held?.length) void this.enqueue(held);
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    if (!event.queryRunner.isTransactionActive) delete (event.queryRunner.data as Held)[PENDING];
  }

  /**
   * Puts attempts on the Bull queue. Never throws: when Redis does not answer within 2 s the rows
   * stay pending and the worker's drain enqueues them later. Several refs due now go as batch jobs
   * (DELIVERY_BATCH each: one claim, one outcome statement per batch in the worker); one ref, or a
   * delayed retry, is a job of its own (job id per delivery and attempt).
   */
  async enqueue(refs: DeliveryRef[], delayMs = 0): Promise<boolean> {
    if (!refs.length) return true;
    let timer: NodeJS.Timeout | undefined;
    const opts = { removeOnComplete: true, removeOnFail: true };
    const jobs =
      refs.length === 1 || delayMs
        ? refs.map((r) => ({
            name: DELIVER_JOB,
            data: r as DeliveryRef | { refs: DeliveryRef[] },
            opts: { ...opts, jobId: jobIdOf(r), delay: delayMs || undefined },
          }))
        : Array.from({ length: Math.ceil(refs.length / DELIVERY_BATCH) }, (_, b) => {
            const batch = refs.slice(b * DELIVERY_BATCH, (b + 1) * DELIVERY_BATCH);
            return {
              name: DELIVER_BATCH_JOB,
              data: { refs: batch } as DeliveryRef | { refs: DeliveryRef[] },
              opts: { ...opts, jobId: `batch:${jobIdOf(batch[0])}` },
            };
          });
    try {
      const add = this.queue.addBulk(jobs);
      await Promise.race([add, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('Redis did not answer in 2 s')), 2000)))]);
      return true;
    } catch (e) {
      this.log.warn(`Could not enqueue ${refs.length} webhook deliveries (the drain will): ${(e as Error).message}`);
      return false;
    } finally {
      clearTimeout(timer);
    }
  }
}
