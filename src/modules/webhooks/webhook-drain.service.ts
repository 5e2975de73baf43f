import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { Clock } from '../../common/clock/clock';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { type DeliveryRef, WebhookOutbox } from './webhook-outbox.service';
import { DEFAULT_WEBHOOK_TIMING, WEBHOOK_TIMING, type WebhookTiming } from './webhooks.constants';

/**
 * The worker's safety net for the outbox (so nothing is lost when Redis or a worker is down):
 * - `drainPending` (every 30 s): due `pending` rows that no worker holds (never enqueued because
 *   Redis was down, job vanished, worker killed mid-attempt after its lease expired) are enqueued
 *   again. Bull job ids are per attempt, so a job that still waits is not duplicated, and the row
 *   claim makes a duplicate job harmless.
 * - `sweepRetries` (every 15 minutes): `retry_pending` rows whose `next_retry_at` is due.
 */
@Injectable()
export class WebhookDrain {
  private readonly log = new Logger('WebhookDrain');
  private readonly timing: WebhookTiming;

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly clock: Clock,
    private readonly outbox: WebhookOutbox,
    @Optional() @Inject(WEBHOOK_TIMING) timing?: Partial<WebhookTiming>,
  ) {
    this.timing = { ...DEFAULT_WEBHOOK_TIMING, ...(timing ?? {}) };
  }

  @Cron(CronExpression.EVERY_30_SECONDS)
  async drainPending(limit = 1000): Promise<number> {
    return this.enqueueDue('pending', limit);
  }

  @Cron('0 */15 * * * *')
  async sweepRetries(limit = 1000): Promise<number> {
    return this.enqueueDue('retry_pending', limit);
  }

  private async enqueueDue(status: 'pending' | 'retry_pending', limit: number): Promise<number> {
    const now = this.clock.now();
    const rows = await this.deliveries.due(status, now, status === 'pending' ? this.timing.drainGraceMs : 0, limit);
    const refs: DeliveryRef[] = rows.map((r) => ({ orgId: r.org_id, id: r.id, attempts: r.attempts }));
    if (refs.length && (await this.outbox.enqueue(refs))) this.log.log(`${status}: ${refs.length} deliveries enqueued`);
    return refs.length;
  }
}
